import { describe, expect, it } from 'vitest';
import { IFACE, NULL_PATH, ROLE, ROOT_PATH, STATE } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { bridgeOf } from './bridges';
import { DbusCallError, DbusTimeoutError, type MethodCall } from '../../../../native/linux/dbus';
import { fakeAtspiClient } from './testing/fake-atspi-client';
import { fetchTree } from './tree-fetch';
import { ORDER_PAGE, documentOrder, shapeFromOrder } from './tree-order';
import type { Item } from './tree-items';

const BUS = ':1.7';

interface FakeNode {
  name: string;
  role: number;
  children: string[];
  /** The Parent the node names itself; by default the node that lists it (null for a window, as Chromium says). */
  parent?: string;
}

/**
 * A Chromium-like app (no cache): GetChildren, the four calls of a node's read, and
 * Collection.GetMatchesFrom in order as at-spi2-atk answers it, including its second pass over
 * the root's later children once the nodes run out.
 */
function chromiumLike(nodes: Record<string, FakeNode>, { collection = true } = {}) {
  const calls: string[] = [];
  const node = (path: string): FakeNode => nodes[path] ?? { name: '', role: ROLE.FILLER, children: [] };
  const preorder = (path: string): string[] => node(path).children.flatMap((child) => [child, ...preorder(child)]);
  const listedBy = new Map(Object.entries(nodes).flatMap(([path, each]) => each.children.map((child) => [child, path] as const)));
  const client = {
    call: (target: [string, string], iface: string, member: string, _signature?: string, body?: unknown[]): Promise<unknown[]> => {
      calls.push(member);
      const path = target[1];
      if (member === 'GetMatchesFrom' && collection) {
        const [from, , , , count] = body as [string, unknown, number, number, number];
        const all = preorder(target[1]);
        const after = all.slice(all.indexOf(from) + 1, all.indexOf(from) + 1 + count);
        // at-spi2-atk's in-order search, out of nodes, goes over the collection's children again from the second on.
        const again = node(target[1])
          .children.slice(1)
          .flatMap((child) => [child, ...preorder(child)]);
        const page = after.length < count ? [...after, ...again].slice(0, count) : after;
        return Promise.resolve([page.map((each) => [BUS, each])]);
      }
      if (member === 'GetRole') return Promise.resolve([node(path).role]);
      if (member === 'GetState') return Promise.resolve([[0, 0]]);
      if (member === 'GetInterfaces') return Promise.resolve([[IFACE.accessible]]);
      if (member === 'GetChildren') return Promise.resolve([node(path).children.map((child) => [BUS, child])]);
      if (member === 'GetAll' && body?.[0] === IFACE.accessible) {
        const { name, children, parent } = node(path);
        const listed = listedBy.get(path);
        const named = parent ?? (listed === ROOT_PATH ? NULL_PATH : (listed ?? NULL_PATH));
        return Promise.resolve([
          { Name: { value: name }, Description: { value: '' }, ChildCount: { value: children.length }, Parent: { value: [BUS, named] } },
        ]);
      }
      return Promise.reject(new Error(`no ${iface}.${member}`));
    },
    property: (target: [string, string], _iface: string, name: string): Promise<unknown> => {
      calls.push(`Get ${name}`);
      return Promise.resolve(name === 'Name' ? node(target[1]).name : '');
    },
  };
  return { client: fakeAtspiClient(client as unknown as AtspiClient), calls };
}

/** The client read call by call, as node-by-node reads went, to compare the call groups against. */
const callByCall = (client: AtspiClient): AtspiClient => Object.assign(client, { callByCall: true });

const APP = { pid: 7, bus: BUS, name: 'chromium', gtk4: false, bridge: bridgeOf('Chromium', '1.0') };
const OPTIONS = { bounds: 'none' as const, maxNodes: 50_000, maxDepth: 64 };

/** A window with a document of `rows` sections, each holding a text and a button: 3 × rows + 2 nodes. */
function page(rows: number): Record<string, FakeNode> {
  const nodes: Record<string, FakeNode> = {
    [ROOT_PATH]: { name: 'chromium', role: ROLE.APPLICATION, children: ['/w', '/w2'] },
    '/w': { name: 'Page', role: ROLE.FRAME, children: ['/doc'] },
    '/w2': { name: 'Other', role: ROLE.FRAME, children: [] },
    '/doc': { name: '', role: ROLE.DOCUMENT_WEB, children: [] },
  };
  for (let row = 0; row < rows; row += 1) {
    (nodes['/doc'] as FakeNode).children.push(`/r${row}`);
    nodes[`/r${row}`] = { name: '', role: ROLE.SECTION, children: [`/t${row}`, `/b${row}`] };
    nodes[`/t${row}`] = { name: `Row ${row}`, role: ROLE.STATIC, children: [] };
    nodes[`/b${row}`] = { name: `Act ${row}`, role: ROLE.PUSH_BUTTON, children: [] };
  }
  return nodes;
}

describe('a whole read in document order (Chromium)', () => {
  it('gives the tree the walk gives, with a GetMatchesFrom per page instead of a GetChildren per parent', async () => {
    const nodes = page(700);
    const walked = await fetchTree(chromiumLike(nodes, { collection: false }).client, APP, OPTIONS);
    const ordered = chromiumLike(nodes);
    expect(await fetchTree(ordered.client, APP, OPTIONS)).toEqual(walked);
    // The app's root (without a cache row, its child count is unknown) and the window that holds the document.
    expect(ordered.calls.filter((call) => call === 'GetChildren')).toHaveLength(2);
    // 2,103 nodes under the root: three pages, the last one short.
    expect(ordered.calls.filter((call) => call === 'GetMatchesFrom')).toHaveLength(Math.ceil(2103 / ORDER_PAGE));
  });

  it('asks each object its interfaces once: a second whole read of the same app takes them from the first', async () => {
    const nodes = page(20);
    const { client, calls } = chromiumLike(nodes);
    const first = await fetchTree(client, APP, OPTIONS);
    const asked = calls.filter((call) => call === 'GetInterfaces').length;
    expect(asked).toBeGreaterThan(60);
    calls.length = 0;
    expect(await fetchTree(client, APP, OPTIONS)).toEqual(first);
    expect(calls.filter((call) => call === 'GetInterfaces')).toHaveLength(0);
    // Another app (a new bus name) is asked afresh.
    calls.length = 0;
    await fetchTree(client, { ...APP, bus: ':1.8' }, OPTIONS);
    expect(calls.filter((call) => call === 'GetInterfaces')).toHaveLength(asked);
  });

  it('mends with GetChildren where a node names another parent than the order gives it', async () => {
    const nodes = page(3);
    // The page changed between the order and the reads: /b1 now says it sits under /r2.
    (nodes['/b1'] as FakeNode).parent = '/r2';
    const walked = await fetchTree(chromiumLike(nodes, { collection: false }).client, APP, OPTIONS);
    const ordered = chromiumLike(nodes);
    expect(await fetchTree(ordered.client, APP, OPTIONS)).toEqual(walked);
    expect(ordered.calls.filter((call) => call === 'GetChildren').length).toBeGreaterThan(0);
  });

  it('lists the document a page put in place of about:blank between the order and the reads (the old one still answers)', async () => {
    const nodes = page(3);
    // Gecko's replaced document keeps answering as it was listed: same Parent, no children, not defunct.
    nodes['/blank'] = { name: '', role: ROLE.DOCUMENT_WEB, children: [], parent: '/w' };
    (nodes['/doc'] as FakeNode).parent = '/w';
    (nodes['/w'] as FakeNode).children = ['/blank'];
    const ordered = chromiumLike(nodes);
    const call = ordered.client.call.bind(ordered.client);
    ordered.client.call = (async (...args: Parameters<AtspiClient['call']>) => {
      const answer = await call(...args);
      // The page's own document arrives just after the order is read.
      if (args[2] === 'GetMatchesFrom') (nodes['/w'] as FakeNode).children = ['/doc'];
      return answer;
    }) as AtspiClient['call'];
    const tree = await fetchTree(ordered.client, APP, OPTIONS);
    expect(tree).toEqual(await fetchTree(chromiumLike(nodes, { collection: false }).client, APP, OPTIONS));
    expect(JSON.stringify(tree)).toContain('Act 2');
  });
});

/**
 * Gecko as bridges.ts reads it: in document order, with Cache.GetItems rows (a few of the
 * browser's own nodes, in at-spi2-atk's row shape) standing in for those nodes' own reads.
 */
function geckoLike(nodes: Record<string, FakeNode>, cached: readonly string[], options: { collection?: boolean } = {}) {
  const app = chromiumLike(nodes, options);
  const listedBy = new Map(Object.entries(nodes).flatMap(([path, each]) => each.children.map((child) => [child, path] as const)));
  const call = app.client.call.bind(app.client);
  app.client.call = ((target: [string, string], iface: string, member: string, signature?: string, body?: unknown[]) => {
    if (member !== 'GetItems') return call(target, iface, member, signature, body);
    app.calls.push(member);
    const rows = cached.map((path) => {
      const { name, role, children } = nodes[path] as FakeNode;
      return [[BUS, path], [BUS, ROOT_PATH], [BUS, listedBy.get(path) ?? ROOT_PATH], -1, children.length, [IFACE.accessible], name, role, '', [0, 0]];
    });
    return Promise.resolve([rows]);
  }) as AtspiClient['call'];
  return app;
}

describe('a whole read in document order (Gecko)', () => {
  const GECKO = { ...APP, name: 'Firefox', bridge: bridgeOf('Gecko', '153.7.0') };

  it('gives the walk’s tree, the cache’s rows standing in for their nodes’ reads, with no GetChildren per parent', async () => {
    const nodes = page(40);
    const cached = ['/w', '/w2'];
    const walked = await fetchTree(geckoLike(nodes, cached, { collection: false }).client, GECKO, OPTIONS);
    const ordered = geckoLike(nodes, cached);
    expect(await fetchTree(ordered.client, GECKO, OPTIONS)).toEqual(walked);
    // The cached windows are never asked their role; every other node is, once.
    expect(ordered.calls.filter((call) => call === 'GetRole')).toHaveLength(3 * 40 + 1);
    // The root's list (it has no row) and the window that holds the document.
    expect(ordered.calls.filter((call) => call === 'GetChildren')).toHaveLength(2);
  });
});

describe("a whole read in call groups (the real client's shape)", () => {
  const GECKO = { ...APP, name: 'Firefox', bridge: bridgeOf('Gecko', '153.7.0') };

  it('gives the tree and the calls that node-by-node reads give, on Chromium and Gecko, first read and second', async () => {
    // 2,103 nodes: batches of 16 with a short last one.
    for (const [app, make] of [
      [APP, () => chromiumLike(page(700))],
      [GECKO, () => geckoLike(page(40), ['/w', '/w2'])],
    ] as const) {
      const plain = make();
      const grouped = make();
      callByCall(plain.client);
      for (let read = 0; read < 2; read += 1) {
        plain.calls.length = 0;
        grouped.calls.length = 0;
        expect(await fetchTree(grouped.client, app, OPTIONS)).toEqual(await fetchTree(plain.client, app, OPTIONS));
        expect([...grouped.calls].sort()).toEqual([...plain.calls].sort());
      }
    }
  });

  it('skips a node whose read failed, and fails the read on a frozen app, as node-by-node reads do', async () => {
    const nodes = page(30);
    const failing = (client: AtspiClient, error: Error): AtspiClient => {
      const call = client.call.bind(client);
      client.call = ((target: [string, string], iface: string, member: string, signature?: string, body?: unknown[]) =>
        target[1] === '/b17' && member === 'GetState' ? Promise.reject(error) : call(target, iface, member, signature, body)) as AtspiClient['call'];
      return client;
    };
    const gone = new DbusCallError('org.freedesktop.DBus.Error.UnknownObject', 'gone', {} as MethodCall);
    const plain = await fetchTree(callByCall(failing(chromiumLike(nodes).client, gone)), APP, OPTIONS);
    expect(await fetchTree(failing(chromiumLike(nodes).client, gone), APP, OPTIONS)).toEqual(plain);
    expect(JSON.stringify(plain)).not.toContain('Act 17');
    const frozen = new DbusTimeoutError({} as MethodCall, 2000);
    await expect(fetchTree(failing(chromiumLike(nodes).client, frozen), APP, OPTIONS)).rejects.toBe(frozen);
  });
});

describe('documentOrder', () => {
  it('stops at the first repeated node, and gives up past maxNodes (the walk then cuts breadth first)', async () => {
    const nodes = page(10);
    const { client, calls } = chromiumLike(nodes);
    const order = await documentOrder(client, [BUS, ROOT_PATH], 1000);
    expect(order?.slice(0, 5)).toEqual(['/w', '/doc', '/r0', '/t0', '/b0']);
    expect(order).toHaveLength(33);
    expect(new Set(order).size).toBe(33);
    expect(calls).toEqual(['GetMatchesFrom']);
    expect(await documentOrder(client, [BUS, ROOT_PATH], 20)).toBeUndefined();
  });
});

describe('shapeFromOrder', () => {
  const item = (path: string, childCount: number): Item => ({
    self: [BUS, path],
    index: 0,
    childCount,
    interfaces: [],
    name: '',
    role: ROLE.FILLER,
    description: '',
    states: [],
  });

  it('places each node under the nearest earlier node with a child left, and stops where a node names another parent', () => {
    const items = new Map([
      [ROOT_PATH, item(ROOT_PATH, -1)],
      ['/a', item('/a', 2)],
      ['/a1', item('/a1', 0)],
      ['/a2', item('/a2', 1)],
      ['/a21', item('/a21', 0)],
      ['/b', item('/b', 1)],
      ['/b1', item('/b1', 0)],
    ]);
    const order = ['/a', '/a1', '/a2', '/a21', '/b', '/b1'];
    expect(Object.fromEntries(shapeFromOrder(ROOT_PATH, order, items, new Map()))).toEqual({
      [ROOT_PATH]: ['/a', '/b'],
      '/a': ['/a1', '/a2'],
      '/a2': ['/a21'],
      '/b': ['/b1'],
    });
    const disagreeing = new Map([['/b1', '/a']]);
    expect(Object.fromEntries(shapeFromOrder(ROOT_PATH, order, items, disagreeing))).toEqual({
      [ROOT_PATH]: ['/a', '/b'],
      '/a': ['/a1', '/a2'],
      '/a2': ['/a21'],
    });
  });
  // Firefox replaces a tab's about:blank document with the page's own while the page loads: the
  // order may still list the old one when its read fails (or says defunct), and the frame's count
  // of one child then already holds the new document.
  const frameWithDocument = (document: Item | undefined): Map<string, Item> => {
    const items = new Map([
      [ROOT_PATH, item(ROOT_PATH, 1)],
      ['/frame', item('/frame', 1)],
    ]);
    if (document !== undefined) items.set('/blank', document);
    return items;
  };

  it('leaves a parent to the walk where a node the order lists is gone (its read failed), so its new child is listed', () => {
    const lists = shapeFromOrder(ROOT_PATH, ['/frame', '/blank', '/blank/p'], frameWithDocument(undefined), new Map());
    expect(Object.fromEntries(lists)).toEqual({ [ROOT_PATH]: ['/frame'] });
  });

  it('leaves a parent to the walk where a node the order lists is defunct', () => {
    const defunct = { ...item('/blank', 0), states: [1 << STATE.DEFUNCT, 0] };
    const lists = shapeFromOrder(ROOT_PATH, ['/frame', '/blank'], frameWithDocument(defunct), new Map([['/blank', '/frame']]));
    expect(Object.fromEntries(lists)).toEqual({ [ROOT_PATH]: ['/frame'] });
  });

  it('takes a node that names no parent at the top level only (a window), not below it', () => {
    const items = frameWithDocument(item('/blank', 0));
    expect(Object.fromEntries(shapeFromOrder(ROOT_PATH, ['/frame', '/blank'], items, new Map([['/frame', NULL_PATH]])))).toEqual({
      [ROOT_PATH]: ['/frame'],
      '/frame': ['/blank'],
    });
    expect(Object.fromEntries(shapeFromOrder(ROOT_PATH, ['/frame', '/blank'], items, new Map([['/blank', NULL_PATH]])))).toEqual({
      [ROOT_PATH]: ['/frame'],
    });
  });
});
