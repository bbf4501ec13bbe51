import { describe, expect, it } from 'vitest';
import { IFACE, NULL_PATH, ROLE, ROOT_PATH, STATE } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { bridgeOf } from './bridges';
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
  /** GetState's two words; none set by default. */
  states?: number[];
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
  const has = (words: readonly number[], bit: number): boolean => (((words[bit >> 5] ?? 0) >>> (bit & 31)) & 1) === 1;
  const bits = (words: readonly number[]): number[] => Array.from({ length: words.length * 32 }, (_unused, bit) => bit).filter((bit) => has(words, bit));
  // A Collection rule as at-spi2-atk matches it: states ALL, ANY or NONE; roles ANY (or every role when none is listed).
  const matcher =
    (rule: unknown[]) =>
    (path: string): boolean => {
      const [stateWords, stateMatch, , , roleWords, roleMatch] = rule as [number[], number, unknown, number, number[], number];
      const wanted = bits(stateWords);
      const states = node(path).states ?? [0, 0];
      const stateOk =
        wanted.length === 0 ||
        (stateMatch === 1
          ? wanted.every((bit) => has(states, bit))
          : stateMatch === 2
            ? wanted.some((bit) => has(states, bit))
            : !wanted.some((bit) => has(states, bit)));
      const roles = bits(roleWords);
      return stateOk && (roles.length === 0 || (roleMatch === 2 && roles.includes(node(path).role)));
    };
  const listedBy = new Map(Object.entries(nodes).flatMap(([path, each]) => each.children.map((child) => [child, path] as const)));
  const client = {
    call: (target: [string, string], iface: string, member: string, _signature?: string, body?: unknown[]): Promise<unknown[]> => {
      const rule = body?.[1] as unknown[] | undefined;
      const everyNode = member === 'GetMatchesFrom' && [rule?.[0], rule?.[4]].every((words) => (words as number[]).every((word) => word === 0));
      calls.push(everyNode ? 'GetMatchesFrom every node' : member);
      const path = target[1];
      if (member === 'GetMatchesFrom' && collection) {
        const [from, rule, , , count] = body as [string, unknown[], number, number, number];
        const matches = matcher(rule);
        const all = preorder(target[1]);
        const after = all
          .slice(all.indexOf(from) + 1)
          .filter(matches)
          .slice(0, count);
        // at-spi2-atk's in-order search, out of nodes, goes over the collection's children again from the second on.
        const again = node(target[1])
          .children.slice(1)
          .flatMap((child) => [child, ...preorder(child)])
          .filter(matches);
        const page = after.length < count ? [...after, ...again].slice(0, count) : after;
        return Promise.resolve([page.map((each) => [BUS, each])]);
      }
      if (member === 'GetRole') return Promise.resolve([node(path).role]);
      if (member === 'GetState') return Promise.resolve([node(path).states ?? [0, 0]]);
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
  return { client: client as unknown as AtspiClient, calls };
}

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
    expect(ordered.calls.filter((call) => call === 'GetMatchesFrom every node')).toHaveLength(Math.ceil(2103 / ORDER_PAGE));
    // Every role on the page is in order-facts.ts's table: the queries gave them all.
    expect(ordered.calls.filter((call) => call === 'GetRole')).toHaveLength(0);
  });

  it('asks GetState only of the nodes whose states decode to more than enabled and showing (Chromium), with the same tree', async () => {
    const nodes = page(300);
    for (const [path, each] of Object.entries(nodes)) {
      // Enabled everywhere, showing near the top, buttons focusable, one row disabled.
      const bits = [STATE.ENABLED, ...(path < '/r1' ? [STATE.SHOWING] : []), ...(each.role === ROLE.PUSH_BUTTON ? [STATE.FOCUSABLE] : [])];
      each.states = [bits.reduce((word, bit) => word | (1 << bit), 0), 0];
    }
    (nodes['/t7'] as FakeNode).states = [0, 0];
    const walked = await fetchTree(chromiumLike(nodes, { collection: false }).client, APP, OPTIONS);
    const ordered = chromiumLike(nodes);
    expect(await fetchTree(ordered.client, APP, OPTIONS)).toEqual(walked);
    // The 300 buttons and the disabled text; no GetRole at all.
    expect(ordered.calls.filter((call) => call === 'GetState')).toHaveLength(301);
    expect(ordered.calls.filter((call) => call === 'GetRole')).toHaveLength(0);
    // Off for a bridge without the flag: every node asked both.
    const plain = chromiumLike(nodes);
    expect(await fetchTree(plain.client, { ...APP, bridge: { ...APP.bridge, bulkFacts: false } }, OPTIONS)).toEqual(walked);
    expect(plain.calls.filter((call) => call === 'GetState').length).toBeGreaterThan(900);
  });

  it('asks both calls of a node no query lists, and GetRole of a role outside the table', async () => {
    const nodes = page(2);
    (nodes['/t1'] as FakeNode).role = ROLE.CALENDAR;
    const ordered = chromiumLike(nodes);
    const call = ordered.client.call.bind(ordered.client);
    let queries = 0;
    ordered.client.call = (async (...args: Parameters<AtspiClient['call']>) => {
      // /b0 is out of the tree for the fact queries (the order lists it), yet still answers its own calls.
      if (args[2] === 'GetMatchesFrom' && (queries += 1) === 2) (nodes['/r0'] as FakeNode).children = ['/t0'];
      const answer = await call(...args);
      if (args[2] === 'GetMatchesFrom' && queries === 7) (nodes['/r0'] as FakeNode).children = ['/t0', '/b0'];
      return answer;
    }) as AtspiClient['call'];
    const tree = await fetchTree(ordered.client, APP, OPTIONS);
    expect(tree).toEqual(await fetchTree(chromiumLike(nodes, { collection: false }).client, APP, OPTIONS));
    expect(ordered.calls.filter((call) => call === 'GetRole')).toHaveLength(2);
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

describe('documentOrder', () => {
  it('stops at the first repeated node, and gives up past maxNodes (the walk then cuts breadth first)', async () => {
    const nodes = page(10);
    const { client, calls } = chromiumLike(nodes);
    const order = await documentOrder(client, [BUS, ROOT_PATH], 1000);
    expect(order?.slice(0, 5)).toEqual(['/w', '/doc', '/r0', '/t0', '/b0']);
    expect(order).toHaveLength(33);
    expect(new Set(order).size).toBe(33);
    expect(calls).toEqual(['GetMatchesFrom every node']);
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
