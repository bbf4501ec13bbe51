import { describe, expect, it } from 'vitest';
import { IFACE, ROLE, ROOT_PATH } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
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
  return { client: client as unknown as AtspiClient, calls };
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
