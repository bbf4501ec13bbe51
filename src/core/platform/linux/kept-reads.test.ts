import { describe, expect, it } from 'vitest';
import { IFACE, ROLE, ROOT_PATH } from '../../../../native/linux/atspi';
import type { AtspiClient, TreeEvent } from './client';
import { bridgeOf } from './bridges';
import { InterfaceMemo, MAX_KEPT_APPS, MAX_KEPT_PATHS } from './kept-reads';
import { fetchTree } from './tree-fetch';

const BUS = ':1.7';
const QT = { pid: 7, bus: BUS, name: 'featherpad', gtk4: false, bridge: bridgeOf('Qt', '5.15.8') };
const OPTIONS = { bounds: 'none' as const, maxNodes: 5000, maxDepth: 64 };

interface FakeNode {
  name: string;
  role: number;
  children: string[];
  interfaces?: string[];
  description?: string;
  /** What ChildCount says where it differs from the list (a view that makes its cells on demand). */
  childCount?: number;
}

/** A Qt-like app: one fact per call, no GetAll, no cache; its events and subscription as the client has them. */
function qtApp(nodes: Record<string, FakeNode>) {
  const calls: string[] = [];
  const listeners = new Set<(event: TreeEvent) => void>();
  const app = { token: {} as object | undefined, pings: 0 };
  const node = (path: string): FakeNode => {
    const found = nodes[path];
    if (found === undefined) throw new Error(`no object at ${path}`);
    return found;
  };
  const client = {
    call: (target: [string, string], iface: string, member: string): Promise<unknown[]> => {
      calls.push(member);
      const found = node(target[1]);
      if (member === 'GetItems' || member === 'GetAll') return Promise.reject(new Error(`Qt has no ${iface}.${member}`));
      if (member === 'GetRole') return Promise.resolve([found.role]);
      if (member === 'GetState') return Promise.resolve([[0, 0]]);
      if (member === 'GetInterfaces') return Promise.resolve([found.interfaces ?? [IFACE.accessible, IFACE.component, IFACE.action]]);
      if (member === 'GetChildren') {
        if ((found.childCount ?? 0) > 1000) throw new Error(`listed the ${found.childCount} children of ${target[1]}`);
        return Promise.resolve([found.children.map((child) => [BUS, child])]);
      }
      return Promise.reject(new Error(`no ${iface}.${member}`));
    },
    property: (target: [string, string], _iface: string, name: string): Promise<unknown> => {
      calls.push(`Get ${name}`);
      const found = node(target[1]);
      if (name === 'ChildCount') return Promise.resolve(found.childCount ?? found.children.length);
      return Promise.resolve(name === 'Name' ? found.name : name === 'Description' ? (found.description ?? '') : '');
    },
    onTreeEvent: (listener: (event: TreeEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    watchToken: () => app.token,
    barrier: () => {
      app.pings += 1;
      return Promise.resolve();
    },
  };
  const emit = (path: string): void => {
    for (const listener of listeners) listener({ bus: BUS, path, member: 'StateChanged', detail: 'showing', detail1: 1, data: 0 });
  };
  const count = (member: string): number => calls.filter((call) => call === member).length;
  return { client: client as unknown as AtspiClient, calls, emit, app, count, clear: () => (calls.length = 0) };
}

const EDITOR: Record<string, FakeNode> = {
  [ROOT_PATH]: { name: 'featherpad', role: ROLE.APPLICATION, children: ['/w'] },
  '/w': { name: 'note.txt', role: ROLE.FRAME, children: ['/bar', '/ok'] },
  '/bar': { name: '', role: ROLE.MENU_BAR, children: ['/file', '/edit'], description: 'the menus' },
  '/file': { name: 'File', role: ROLE.MENU_ITEM, children: [] },
  '/edit': { name: 'Edit', role: ROLE.MENU_ITEM, children: [] },
  '/ok': { name: 'OK', role: ROLE.PUSH_BUTTON, children: [] },
};
const READ_NODES = 5; // all but the application root, which the read names itself

describe('Qt reads (kept-reads.ts)', () => {
  it('reads each node in six calls the first time, and lists only the nodes that have children', async () => {
    const qt = qtApp(EDITOR);
    const tree = await fetchTree(qt.client, QT, OPTIONS);
    expect(tree.children?.[0]?.children?.[0]).toMatchObject({ role: 'menubar', description: 'the menus' });
    for (const member of ['GetRole', 'GetState', 'GetInterfaces', 'Get Name', 'Get Description', 'Get ChildCount']) expect(qt.count(member)).toBe(READ_NODES);
    // The root, the window and the menu bar have children.
    expect(qt.count('GetChildren')).toBe(3);
    expect(qt.calls).not.toContain('GetAll');
    expect(qt.app.pings).toBe(0);
  });

  it('reads the same tree again without interfaces or child counts: children are listed in the round trip that reads a node', async () => {
    const qt = qtApp(EDITOR);
    const first = await fetchTree(qt.client, QT, OPTIONS);
    qt.clear();
    expect(await fetchTree(qt.client, QT, OPTIONS)).toEqual(first);
    expect(qt.count('GetInterfaces')).toBe(0);
    expect(qt.count('Get ChildCount')).toBe(0);
    // Every node but the root (listed by the walk as before) lists its children with its own calls: 4 per node and the root's list.
    expect(qt.count('GetChildren')).toBe(READ_NODES + 1);
    expect(qt.calls.length).toBe(5 * READ_NODES + 1);
    // The app's pending events were let in first.
    expect(qt.app.pings).toBe(1);
  });

  it('asks every interface again after any event from the app', async () => {
    const qt = qtApp(EDITOR);
    const first = await fetchTree(qt.client, QT, OPTIONS);
    qt.emit('/file');
    qt.clear();
    expect(await fetchTree(qt.client, QT, OPTIONS)).toEqual(first);
    expect(qt.count('GetInterfaces')).toBe(READ_NODES);
    expect(qt.count('Get ChildCount')).toBe(READ_NODES);
  });

  it('keeps nothing while the app is unwatched, and forgets all when it was subscribed again (events were lost between)', async () => {
    const qt = qtApp(EDITOR);
    qt.app.token = undefined;
    await fetchTree(qt.client, QT, OPTIONS);
    qt.clear();
    await fetchTree(qt.client, QT, OPTIONS);
    expect(qt.count('GetInterfaces')).toBe(READ_NODES);
    qt.app.token = {};
    await fetchTree(qt.client, QT, OPTIONS);
    qt.app.token = {};
    qt.clear();
    await fetchTree(qt.client, QT, OPTIONS);
    expect(qt.count('GetInterfaces')).toBe(READ_NODES);
  });

  it('never lists an item view with its own calls: its count comes first, and a huge one is not listed at all', async () => {
    const view = [IFACE.accessible, IFACE.component, IFACE.table];
    const qt = qtApp({
      [ROOT_PATH]: { name: 'app', role: ROLE.APPLICATION, children: ['/w'] },
      '/w': { name: 'Files', role: ROLE.FRAME, children: ['/small', '/huge'] },
      '/small': { name: '', role: ROLE.TABLE, children: ['/cell'], interfaces: view },
      '/cell': { name: 'a.txt', role: ROLE.TABLE_CELL, children: [] },
      '/huge': { name: '', role: ROLE.TABLE, children: [], childCount: 50_000, interfaces: view },
    });
    const first = await fetchTree(qt.client, QT, OPTIONS);
    qt.clear();
    expect(await fetchTree(qt.client, QT, OPTIONS)).toEqual(first);
    // The two views had their count asked (as the first read did), the small one then listed.
    expect(qt.count('Get ChildCount')).toBe(2);
    expect(first.children?.[0]?.children?.[0]?.children?.[0]?.name).toBe('a.txt');
  });

  it('does not keep an answer asked before an event that came in while it was on its way', () => {
    const listeners: ((event: TreeEvent) => void)[] = [];
    const memo = new InterfaceMemo({ onTreeEvent: (listener) => (listeners.push(listener), () => undefined), watchToken: () => 'sub' });
    const mark = memo.mark(BUS);
    for (const listener of listeners) listener({ bus: BUS, path: '/m', member: 'StateChanged', detail: 'showing', detail1: 1, data: 0 });
    memo.keep([BUS, '/m'], [IFACE.accessible], mark);
    expect(memo.get([BUS, '/m'])).toBeUndefined();
    memo.keep([BUS, '/m'], [IFACE.accessible], memo.mark(BUS));
    expect(memo.get([BUS, '/m'])).toEqual([IFACE.accessible]);
  });

  it('keeps a bounded number of apps: the oldest make way (an app that quit is never asked for again)', () => {
    const memo = new InterfaceMemo({ onTreeEvent: () => () => undefined, watchToken: () => 'sub' });
    for (let app = 0; app <= MAX_KEPT_APPS; app += 1) memo.keep([`:1.${app}`, '/n'], [IFACE.accessible], memo.mark(`:1.${app}`));
    expect(memo.get([':1.0', '/n'])).toBeUndefined();
    expect(memo.get([`:1.${MAX_KEPT_APPS}`, '/n'])).toEqual([IFACE.accessible]);
  });

  it('keeps a bounded number of paths per app', () => {
    const memo = new InterfaceMemo({ onTreeEvent: () => () => undefined, watchToken: () => 'sub' });
    for (let index = 0; index <= MAX_KEPT_PATHS; index += 1) memo.keep([BUS, `/n${index}`], [IFACE.accessible], memo.mark(BUS));
    expect(memo.get([BUS, '/n0'])).toBeUndefined();
    expect(memo.get([BUS, `/n${MAX_KEPT_PATHS}`])).toEqual([IFACE.accessible]);
  });
});
