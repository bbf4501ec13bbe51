import { describe, expect, it } from 'vitest';
import { IFACE, ROLE, ROOT_PATH } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { fakeAtspiClient } from './testing/fake-atspi-client';
import { bridgeOf } from './bridges';
import { fetchTree } from './tree-fetch';

const BUS = ':1.42';

/** An app with no cache (as Chromium), whose nodes the fetch walks call by call. */
function walkedApp(nodes: Record<string, { name: string; role: number; children: string[]; childCount?: number }>, getAll = true) {
  const calls: string[] = [];
  const node = (path: string) => nodes[path] ?? { name: '', role: ROLE.FILLER, children: [] };
  const client = {
    call: (target: [string, string], iface: string, member: string, _signature?: string, body?: unknown[]): Promise<unknown[]> => {
      calls.push(member);
      const path = target[1];
      if (member === 'GetItems') return Promise.reject(new Error('no cache'));
      if (member === 'GetRole') return Promise.resolve([node(path).role]);
      if (member === 'GetState') return Promise.resolve([[0, 0]]);
      if (member === 'GetInterfaces') return Promise.resolve([[IFACE.accessible]]);
      if (member === 'GetChildren') return Promise.resolve([node(path).children.map((child) => [BUS, child])]);
      if (member === 'GetAll' && getAll && body?.[0] === IFACE.accessible) {
        const { name, children, childCount } = node(path);
        return Promise.resolve([{ Name: { value: name }, Description: { value: '' }, ChildCount: { value: childCount ?? children.length } }]);
      }
      return Promise.reject(new Error(`no ${iface}.${member}`));
    },
    property: (target: [string, string], _iface: string, name: string): Promise<unknown> => {
      calls.push(`Get ${name}`);
      const { name: text, children, childCount } = node(target[1]);
      return Promise.resolve(name === 'Name' ? text : name === 'ChildCount' ? (childCount ?? children.length) : '');
    },
  };
  return { client: fakeAtspiClient(client as unknown as AtspiClient), calls };
}

const APP = { pid: 42, bus: BUS, name: 'app', gtk4: false, bridge: bridgeOf('Chromium', '1.0') };
const OPTIONS = { bounds: 'none' as const, maxNodes: 5000, maxDepth: 64 };

describe('fetchTree', () => {
  it('reads a walked node in four calls, its properties in one GetAll, and in three Gets where the bridge lacks it', async () => {
    const nodes = {
      [ROOT_PATH]: { name: 'app', role: ROLE.APPLICATION, children: ['/w'] },
      '/w': { name: 'Main', role: ROLE.FRAME, children: ['/ok'] },
      '/ok': { name: 'OK', role: ROLE.PUSH_BUTTON, children: [] },
    };
    const withGetAll = walkedApp(nodes);
    const tree = await fetchTree(withGetAll.client, APP, OPTIONS);
    expect(tree.children?.[0]?.children?.[0]).toMatchObject({ role: 'button', name: 'OK' });
    expect(withGetAll.calls.filter((call) => call.startsWith('Get ')).length).toBe(0);
    const without = walkedApp(nodes, false);
    expect(await fetchTree(without.client, APP, OPTIONS)).toEqual(tree);
    expect(without.calls.filter((call) => call === 'Get Name')).toHaveLength(2);
  });

  it('expands each node once when children lists loop, with a child count that never matches', async () => {
    const { client } = walkedApp({
      [ROOT_PATH]: { name: 'app', role: ROLE.APPLICATION, children: ['/w'] },
      '/w': { name: 'Main', role: ROLE.FRAME, children: ['/menu'] },
      // GTK3 menus report -1 children; this one lists its own window among them.
      '/menu': { name: 'File', role: ROLE.MENU, children: ['/w', '/open'], childCount: -1 },
      '/open': { name: 'Open', role: ROLE.MENU_ITEM, children: [] },
    });
    const tree = await fetchTree(client, APP, OPTIONS);
    expect(tree.children?.[0]?.children?.[0]?.children?.map((child) => child.name)).toContain('Open');
  });
});

/** The shape GetItems answers: a((so)(so)(so)iiassusau). */
function cacheRow(path: string, parent: string, role: number, childCount: number, name = ''): unknown[] {
  return [[BUS, path], [BUS, ROOT_PATH], [BUS, parent], -1, childCount, [IFACE.accessible], name, role, '', [0, 0]];
}

describe('fetchTree on LibreOffice-like apps', () => {
  it('keeps a pane the cache places under an unreachable parent where GetChildren lists it, with what is under it', async () => {
    const { client } = walkedApp({
      [ROOT_PATH]: { name: 'soffice', role: ROLE.APPLICATION, children: ['/w'] },
      '/w': { name: 'Untitled 1 - LibreOffice Calc', role: ROLE.FRAME, children: ['/p'] },
      '/p': { name: '', role: ROLE.PANEL, children: ['/pane'] },
      '/pane': { name: '', role: ROLE.ROOT_PANE, children: ['/doc'] },
      '/doc': { name: 'Sheet', role: ROLE.DOCUMENT_SPREADSHEET, children: [] },
    });
    const rows = [cacheRow('/pane', '/ghost', ROLE.ROOT_PANE, 1), cacheRow('/ghost', '/nowhere', ROLE.PANEL, 1)];
    const withRows = Object.assign(Object.create(client) as AtspiClient, {
      call: (target: [string, string], iface: string, member: string, signature?: string, body?: unknown[]) =>
        member === 'GetItems' ? Promise.resolve([rows]) : client.call(target, iface, member, signature, body),
    });
    const tree = await fetchTree(withRows, { ...APP, bridge: bridgeOf('gtk', '3.24', 'soffice') }, OPTIONS);
    const pane = tree.children?.[0]?.children?.[0]?.children?.[0];
    expect(pane?.platformRole).toBe(`atspi:${ROLE.ROOT_PANE}`);
    expect(pane?.children?.[0]?.name).toBe('Sheet');
  });

  it('reads a sheet of 2^31 cells by its visible range through Table, never listing its children', async () => {
    const base = walkedApp({
      [ROOT_PATH]: { name: 'soffice', role: ROLE.APPLICATION, children: ['/t'] },
      '/t': { name: 'Sheet1', role: ROLE.TABLE, children: [], childCount: 2 ** 31 - 1 },
    });
    const manages = [2 ** 31, 0]; // MANAGES_DESCENDANTS is bit 31 of the first word.
    const call = (target: [string, string], iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]> => {
      const [row, column] = (body ?? []) as number[];
      const cell = /^\/c(\d+)_(\d+)$/.exec(target[1]);
      if (target[1] === '/t' && member === 'GetChildren') throw new Error('listed the children of a sheet');
      if (target[1] === '/t' && member === 'GetInterfaces') return Promise.resolve([[IFACE.accessible, IFACE.table, IFACE.component]]);
      if (target[1] === '/t' && member === 'GetState') return Promise.resolve([manages]);
      if (member === 'GetExtents') return Promise.resolve([[0, 0, 300, 100]]);
      if (member === 'GetAccessibleAtPoint') return Promise.resolve([[BUS, (row ?? 0) < 10 ? '/c0_1' : '/c2_3']]);
      if (member === 'GetIndexInParent' && cell !== null) return Promise.resolve([Number(cell[1]) * 100 + Number(cell[2])]);
      if (member === 'GetRowAtIndex') return Promise.resolve([Math.floor((row ?? 0) / 100)]);
      if (member === 'GetColumnAtIndex') return Promise.resolve([(row ?? 0) % 100]);
      if (member === 'GetAccessibleAt') return Promise.resolve([[BUS, `/c${row}_${column}`]]);
      if (cell !== null && member === 'GetRole') return Promise.resolve([ROLE.TABLE_CELL]);
      return base.client.call(target, iface, member, signature, body);
    };
    const client = Object.assign(Object.create(base.client) as AtspiClient, { call });
    const tree = await fetchTree(client, APP, OPTIONS);
    const cells = tree.children?.[0]?.children ?? [];
    // Rows 0 to 2, columns B to D; unnamed cells are named by their address.
    expect(cells.map((cell) => cell.name)).toEqual(['B1', 'C1', 'D1', 'B2', 'C2', 'D2', 'B3', 'C3', 'D3']);
    expect(tree.children?.[0]?.ref.huge).toBe(true);
  });
});

describe('fetchTree on Gecko', () => {
  it('takes a node from its cache row instead of four calls, yet shapes the tree by GetChildren alone', async () => {
    const nodes = {
      [ROOT_PATH]: { name: 'Firefox', role: ROLE.APPLICATION, children: ['/w'] },
      '/w': { name: 'Page', role: ROLE.FRAME, children: ['/ok', '/new'] },
      '/ok': { name: 'OK', role: ROLE.PUSH_BUTTON, children: [] },
      '/new': { name: 'Late', role: ROLE.PUSH_BUTTON, children: [] },
    };
    const walked = walkedApp(nodes);
    const gecko = { ...APP, bridge: bridgeOf('Gecko', '128.0') };
    const expected = await fetchTree(walked.client, { ...gecko, bridge: { ...gecko.bridge, cacheItems: false } }, OPTIONS);
    // The cache holds /w and /ok, and a button no list reaches any more, placed under /w; /new is not in it yet.
    const rows = [
      cacheRow('/w', ROOT_PATH, ROLE.FRAME, 2, 'Page'),
      cacheRow('/ok', '/w', ROLE.PUSH_BUTTON, 0, 'OK'),
      cacheRow('/gone', '/w', ROLE.PUSH_BUTTON, 0, 'Gone'),
    ];
    const cached = walkedApp(nodes);
    const withRows = Object.assign(Object.create(cached.client) as AtspiClient, {
      call: (target: [string, string], iface: string, member: string, signature?: string, body?: unknown[]) => {
        if (member === 'GetItems') return Promise.resolve([rows]);
        return cached.client.call(target, iface, member, signature, body);
      },
    });
    expect(await fetchTree(withRows, gecko, OPTIONS)).toEqual(expected);
    // Only /new, which the cache lacks, was read node by node.
    expect(cached.calls.filter((call) => call === 'GetRole')).toHaveLength(1);
  });
});
