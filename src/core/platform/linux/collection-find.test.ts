import { describe, expect, it } from 'vitest';
import { IFACE, ROLE, ROOT_PATH, STATE } from '../../../../native/linux/atspi';
import { parseSignature, type TypeNode } from '../../../../native/linux/dbus-signature';
import { Writer } from '../../../../native/linux/dbus-writer';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import { buildTree } from '../../ui/ids';
import { findNodes } from '../../ui/query';
import type { AtspiClient } from './client';
import { fakeAtspiClient } from './testing/fake-atspi-client';
import { bridgeOf } from './bridges';
import { collectionFind, roleBits } from './collection-find';
import { normalizeRole } from './roles';
import { fetchTree } from './tree-fetch';

const BUS = ':1.9';

interface FakeNode {
  name: string;
  role: number;
  children: string[];
}

/** A page of `rows` rows, each a cell and a button "Act i", under a heading: walked, and searchable through Collection. */
function page(rows: number, collection = true) {
  const nodes: Record<string, FakeNode> = {
    [ROOT_PATH]: { name: 'browser', role: ROLE.APPLICATION, children: ['/w'] },
    '/w': { name: 'Big page', role: ROLE.FRAME, children: ['/doc'] },
    '/doc': { name: '', role: ROLE.DOCUMENT_WEB, children: ['/h', ...Array.from({ length: rows }, (_unused, row) => `/r${row}`)] },
    '/h': { name: 'Big page', role: ROLE.HEADING, children: [] },
  };
  for (let row = 0; row < rows; row += 1) {
    nodes[`/r${row}`] = { name: '', role: ROLE.TABLE_ROW, children: [`/c${row}`, `/b${row}`] };
    nodes[`/c${row}`] = { name: `Row ${row}`, role: ROLE.TABLE_CELL, children: [] };
    nodes[`/b${row}`] = { name: `Act ${row}`, role: ROLE.PUSH_BUTTON, children: [] };
  }
  const parents = new Map(Object.entries(nodes).flatMap(([path, node]) => node.children.map((child) => [child, path] as const)));
  const calls = new Map<string, number>();
  const count = (member: string) => calls.set(member, (calls.get(member) ?? 0) + 1);
  const node = (path: string): FakeNode => nodes[path] ?? { name: '', role: ROLE.FILLER, children: [] };
  const client = {
    call: (target: [string, string], iface: string, member: string, _signature?: string, body?: unknown[]): Promise<unknown[]> => {
      count(member);
      const path = target[1];
      if (member === 'GetMatches') {
        if (!collection) return Promise.reject(new Error('org.freedesktop.DBus.Error.UnknownMethod'));
        const [rule, , count] = body as [unknown[], number, number];
        const bits = rule[4] as number[];
        const wanted = (role: number) => bits.every((word) => word === 0) || (((bits[role >> 5] ?? 0) >>> (role & 31)) & 1) === 1;
        // As at-spi2-atk: document order, and no more than `count` matches where it is not 0.
        const found = Object.keys(nodes)
          .filter((each) => each !== ROOT_PATH && wanted(node(each).role))
          .map((each) => [BUS, each]);
        return Promise.resolve([count > 0 ? found.slice(0, count) : found]);
      }
      if (member === 'GetItems') return Promise.reject(new Error('no cache'));
      if (member === 'GetRole') return Promise.resolve([node(path).role]);
      if (member === 'GetState') return Promise.resolve([[0, 0]]);
      if (member === 'GetInterfaces') return Promise.resolve([[IFACE.accessible, ...(node(path).role === ROLE.PUSH_BUTTON ? [IFACE.action] : [])]]);
      if (member === 'GetChildren') return Promise.resolve([node(path).children.map((child) => [BUS, child])]);
      if (member === 'GetAll')
        return Promise.resolve([{ Name: { value: node(path).name }, Description: { value: '' }, ChildCount: { value: node(path).children.length } }]);
      return Promise.reject(new Error(`no ${iface}.${member}`));
    },
    property: (target: [string, string], _iface: string, name: string): Promise<unknown> => {
      count(`Get ${name}`);
      if (name === 'Name') return Promise.resolve(node(target[1]).name);
      if (name === 'Parent') return Promise.resolve([BUS, parents.get(target[1]) ?? '/org/a11y/atspi/null']);
      return Promise.resolve('');
    },
  };
  return { client: fakeAtspiClient(client as unknown as AtspiClient), calls };
}

const APP = { pid: 9, bus: BUS, name: 'browser', gtk4: false, bridge: bridgeOf('Chromium', '120') };

describe('collectionFind', () => {
  it('gives a found node the id the whole tree gives it, without reading the tree', async () => {
    const { client, calls } = page(300);
    const [found] = (await collectionFind(client, APP, { roles: new Set(['button']), name: 'Act 250', limit: 20 })) ?? [];
    expect(found?.node).toMatchObject({ role: 'button', name: 'Act 250', actions: ['press'] });
    const tree = buildTree(await fetchTree(page(300).client, APP, { bounds: 'none', maxNodes: 5000, maxDepth: 64 })).root;
    const [inTree] = findNodes(tree, { role: 'button', name: 'Act 250' });
    expect(buildTree(found?.node as never, found?.slot).root.id).toBe(inTree?.node.id);
    // One search, a name per button, then the chain: no GetChildren but the four lists on the way up, and no row read whole.
    expect(calls.get('GetMatches')).toBe(1);
    expect(calls.get('Get Name')).toBe(300);
    expect(calls.get('GetChildren')).toBe(4);
    expect(calls.get('GetAll')).toBeUndefined();
  });

  it("places a match with its earlier siblings' roles alone, reading states only where they decide the role", async () => {
    const { client } = page(300);
    // A one-line text in row 250, before its cell: a text area whose states make it a textfield.
    const call = client.call.bind(client);
    const statesAsked: string[] = [];
    let rolesAsked = 0;
    client.call = (target, iface, member, signature, body) => {
      const [, path] = target;
      if (member === 'GetState') statesAsked.push(path);
      if (member === 'GetRole') rolesAsked += 1;
      if (path === '/t') {
        if (member === 'GetRole') return Promise.resolve([ROLE.TEXT]);
        if (member === 'GetState') return Promise.resolve([[1 << STATE.SINGLE_LINE, 0]]);
      }
      if (member === 'GetChildren' && path === '/r250')
        return Promise.resolve([
          [
            [BUS, '/t'],
            [BUS, '/c250'],
            [BUS, '/b250'],
          ],
        ]);
      return call(target, iface, member, signature, body);
    };
    const [found] = (await collectionFind(client, APP, { roles: new Set(['button']), name: 'Act 250', limit: 1 })) ?? [];
    expect(found?.slot.roleIndex).toBe(0);
    // The heading and 250 rows before row 250, the text and the cell before the button: a GetRole each. States only
    // for the chain's four nodes (their match and slot need them) and for the text, whose role they decide.
    expect(rolesAsked).toBe(4 + 251 + 2);
    expect(statesAsked.sort()).toEqual(['/b250', '/doc', '/r250', '/t', '/w']);
  });

  it('looks for a name alone among the roles a model acts on first, and asks every role only when none has it', async () => {
    const acted = page(300);
    const [button] = (await collectionFind(acted.client, APP, { name: 'Act 250', limit: 1 })) ?? [];
    expect(button?.node).toMatchObject({ role: 'button', name: 'Act 250' });
    // One search, and names of the buttons only: the 300 cells are never asked.
    expect(acted.calls.get('GetMatches')).toBe(1);
    expect(acted.calls.get('Get Name')).toBe(300);
    const texts = page(300);
    const [cell] = (await collectionFind(texts.client, APP, { name: 'Row 250', limit: 1 })) ?? [];
    expect(cell?.node).toMatchObject({ role: 'cell', name: 'Row 250' });
    // Then the headings, then every role: each name is still asked once.
    expect(texts.calls.get('GetMatches')).toBe(3);
    expect(texts.calls.get('Get Name')).toBe(903);
  });

  it('looks for a name no actionable node has among the headings before every role', async () => {
    // The window is named as the heading and comes first in document order: the heading answers.
    const { client, calls } = page(300);
    const found = (await collectionFind(client, APP, { name: 'Big page', limit: 5 })) ?? [];
    expect(found.map((match) => match.node.role)).toEqual(['heading']);
    const tree = buildTree(await fetchTree(page(300).client, APP, { bounds: 'none', maxNodes: 5000, maxDepth: 64 })).root;
    const [inTree] = findNodes(tree, { role: 'heading', name: 'Big page' });
    expect(buildTree(found[0]?.node as never, found[0]?.slot).root.id).toBe(inTree?.node.id);
    // The buttons' names and the heading's: no cell, row or window asked.
    expect(calls.get('GetMatches')).toBe(2);
    expect(calls.get('Get Name')).toBe(301);
  });

  it('stops naming every role once the limit holds perfect matches, which nothing later outranks', async () => {
    const { client, calls } = page(3000);
    const found = (await collectionFind(client, APP, { name: 'Row 5', limit: 1 })) ?? [];
    expect(found.map((match) => `${match.node.role} ${match.node.name}`)).toEqual(['cell Row 5']);
    // The 3,000 buttons and the heading, then one batch of every role in document order, not all 9,003 nodes.
    expect(calls.get('Get Name')).toBeLessThan(3001 + 1024 + 1);
  });

  it('names the matches in growing batches, so a control near the top costs few Name reads', async () => {
    const { client, calls } = page(3000);
    const [found] = (await collectionFind(client, APP, { name: 'Act 5', limit: 1 })) ?? [];
    expect(found?.node).toMatchObject({ role: 'button', name: 'Act 5' });
    expect(calls.get('Get Name')).toBe(64);
    // Past the first batches: 64, 128 and 256 named, then the batch that holds it.
    const later = page(3000);
    await collectionFind(later.client, APP, { name: 'Act 500', limit: 1 });
    expect(later.calls.get('Get Name')).toBe(64 + 128 + 256 + 512);
  });

  it("sends the caller to the tree when the every-role search times out, and a one-role timeout is the app's", async () => {
    const slowEvery = (everyRoleOnly: boolean) => {
      const { client, calls } = page(50);
      const call = client.call.bind(client);
      const timedOut: boolean[] = [];
      client.call = (target, iface, member, signature, body) => {
        const bits = member === 'GetMatches' ? ((body as [unknown[]])[0][4] as number[]) : [];
        const everyRole = bits.every((word) => word === 0);
        if (member === 'GetMatches' && (everyRole || !everyRoleOnly)) {
          timedOut.push(everyRole);
          return Promise.reject(new DbusTimeoutError({ destination: BUS, path: ROOT_PATH, interface: 'Collection', member } as never, 2000));
        }
        return call(target, iface, member, signature, body);
      };
      return { client, calls, timedOut };
    };
    const every = slowEvery(true);
    await expect(collectionFind(every.client, APP, { name: 'Row 7', limit: 5 })).resolves.toBeUndefined();
    // The actionable roles and headings were asked and answered first.
    expect(every.calls.get('GetMatches')).toBe(2);
    expect(every.timedOut).toEqual([true]);
    await expect(collectionFind(slowEvery(false).client, APP, { roles: new Set(['button']), name: 'Act 7', limit: 5 })).rejects.toBeInstanceOf(
      DbusTimeoutError,
    );
  });

  it('places a role-only search in document order, named, and ids match the tree', async () => {
    const found = (await collectionFind(page(5).client, APP, { roles: new Set(['cell']), limit: 2 })) ?? [];
    const tree = buildTree(await fetchTree(page(5).client, APP, { bounds: 'none', maxNodes: 5000, maxDepth: 64 })).root;
    const expected = findNodes(tree, { role: 'cell', limit: 2 }).map((match) => match.node.id);
    expect(found.map((match) => buildTree(match.node, match.slot).root.id)).toEqual(expected);
    expect(found.map((match) => match.node.name)).toEqual(['Row 0', 'Row 1']);
  });

  it('asks the bridge for no more than the limit where no name is asked, and for all where foreign refs took the count', async () => {
    const { client, calls } = page(300);
    const counts: number[] = [];
    const call = client.call.bind(client);
    let foreign = 0;
    client.call = async (target, iface, member, signature, body) => {
      const answer = await call(target, iface, member, signature, body);
      if (member !== 'GetMatches') return answer;
      counts.push((body as [unknown, number, number])[2]);
      // Another app's refs first, as an embedded document may answer: the first `count` hold too few of this app's.
      const refs = answer[0] as [string, string][];
      return [[...Array.from({ length: foreign }, (_unused, index) => [':1.77', `/f${index}`]), ...refs].slice(0, counts.at(-1) || undefined)];
    };
    const found = (await collectionFind(client, APP, { roles: new Set(['button']), limit: 3 })) ?? [];
    expect(found.map((match) => match.node.name)).toEqual(['Act 0', 'Act 1', 'Act 2']);
    expect(counts).toEqual([4]);
    expect(calls.get('Get Name')).toBe(3);
    foreign = 2;
    const past = (await collectionFind(client, APP, { roles: new Set(['button']), limit: 3 })) ?? [];
    expect(past.map((match) => match.node.name)).toEqual(['Act 0', 'Act 1', 'Act 2']);
    expect(counts).toEqual([4, 4, 0]);
  });

  it('leaves near matches to the tree, and sends the caller there when the app has no Collection', async () => {
    expect(await collectionFind(page(40).client, APP, { roles: new Set(['button']), name: 'Act 3950', limit: 20 })).toEqual([]);
    expect(await collectionFind(page(4, false).client, APP, { name: 'Act 1', limit: 20 })).toBeUndefined();
  });

  it('asks only the bridges known to answer Collection: never Qt', () => {
    expect(bridgeOf('Qt', '5.15.8').collection).toBe(false);
    expect(bridgeOf('GTK', '4.8.3').collection).toBe(false);
    expect(bridgeOf('Gecko', '115').collection).toBe(true);
    expect(bridgeOf('Chromium', '120').collection).toBe(true);
  });

  it('sets one bit per AT-SPI role of the family', () => {
    const bits = roleBits(new Set(['button']));
    expect(((bits[ROLE.PUSH_BUTTON >> 5] ?? 0) >>> (ROLE.PUSH_BUTTON & 31)) & 1).toBe(1);
    expect(((bits[ROLE.TABLE_CELL >> 5] ?? 0) >>> (ROLE.TABLE_CELL & 31)) & 1).toBe(0);
  });

  it("keeps every word a signed 32-bit int, as the rule's `ai` needs, even with bit 31 set", () => {
    const roles = new Set(Array.from({ length: 130 }, (_unused, index) => normalizeRole(index)));
    const bits = roleBits(roles);
    for (const word of bits) expect(word).toBe(word | 0);
    // Role 31 (LIST) is the high bit of the first word.
    expect(bits[0] ?? 0).toBeLessThan(0);
    const [type] = parseSignature('ai');
    expect(() => new Writer().write(type as TypeNode, bits)).not.toThrow();
  });
});
