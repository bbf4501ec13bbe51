import { describe, expect, it } from 'vitest';
import { IFACE, ROLE, ROOT_PATH } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { fakeAtspiClient } from './testing/fake-atspi-client';
import { bridgeOf } from './bridges';
import { fetchTree } from './tree-fetch';

const BUS = ':1.7';

/** A walked app (no cache, as a Gecko page) of one window holding `count` buttons; every call is counted. */
function page(count: number) {
  const calls = new Map<string, number>();
  const children = (path: string): string[] =>
    path === ROOT_PATH ? ['/w'] : path === '/w' ? Array.from({ length: count }, (_unused, index) => `/b${index}`) : [];
  const role = (path: string): number => (path === ROOT_PATH ? ROLE.APPLICATION : path === '/w' ? ROLE.FRAME : ROLE.PUSH_BUTTON);
  const client = {
    call: (target: [string, string], iface: string, member: string): Promise<unknown[]> => {
      calls.set(member, (calls.get(member) ?? 0) + 1);
      const path = target[1];
      if (member === 'GetRole') return Promise.resolve([role(path)]);
      if (member === 'GetState') return Promise.resolve([[0, 0]]);
      if (member === 'GetInterfaces') return Promise.resolve([[IFACE.accessible]]);
      if (member === 'GetChildren') return Promise.resolve([children(path).map((child) => [BUS, child])]);
      if (member === 'GetAll')
        return Promise.resolve([{ Name: { value: `Act ${path.slice(2)}` }, Description: { value: '' }, ChildCount: { value: children(path).length } }]);
      return Promise.reject(new Error(`no ${iface}.${member}`));
    },
    property: (): Promise<unknown> => Promise.resolve(''),
  };
  return { client: fakeAtspiClient(client as unknown as AtspiClient), calls };
}

const APP = { pid: 7, bus: BUS, name: 'page', gtk4: false, bridge: bridgeOf('Gecko', '115') };

describe('fetchTree says where a read stopped', () => {
  it('marks nothing on a whole read', async () => {
    const tree = await fetchTree(page(30).client, APP, { bounds: 'none', maxNodes: 100, maxDepth: 64 });
    expect(tree.cut).toBeUndefined();
    expect(tree.children?.[0]?.children).toHaveLength(30);
  });

  it('marks a node cap on the root, with the nodes kept, and reads nothing past it', async () => {
    const { client, calls } = page(30);
    const tree = await fetchTree(client, APP, { bounds: 'none', maxNodes: 12, maxDepth: 64 });
    expect(tree.cut).toEqual({ reason: 'max-nodes', limit: 12, nodes: 12 });
    expect(tree.children?.[0]?.children).toHaveLength(10);
    // The window and the buttons within the cap: no node past it costs a call.
    expect(calls.get('GetRole')).toBeLessThanOrEqual(12);
  });

  it('marks a depth cap as one', async () => {
    const tree = await fetchTree(page(5).client, APP, { bounds: 'none', maxNodes: 100, maxDepth: 1 });
    expect(tree.cut).toEqual({ reason: 'max-depth', limit: 1, nodes: 2 });
  });
});
