import { describe, expect, it } from 'vitest';
import { IFACE, ROLE } from '../../../../native/linux/atspi';
import { DbusCallError, DbusTimeoutError } from '../../../../native/linux/dbus';
import type { RawNode } from '../../ui/ids';
import type { AtspiRef } from './client';
import { ShortcutReader } from './shortcuts';

const BUS = ':1.42';

function node(path: string, role: number, name: string, children: RawNode<AtspiRef>[] = [], enabled = true): RawNode<AtspiRef> {
  const normalized = role === ROLE.MENU ? 'menu' : role === ROLE.MENU_BAR ? 'menubar' : role === ROLE.FRAME ? 'window' : 'menuitem';
  return {
    ref: { pid: 7, bus: BUS, path, interfaces: [IFACE.accessible, IFACE.action], role, gtk4: false },
    role: normalized,
    platformRole: `atspi:${role}`,
    name,
    states: { enabled, focused: false },
    actions: ['press'],
    ...(children.length === 0 ? {} : { children }),
  };
}

/** mousepad's File and Edit menus, as the tree read returns them (GTK3 pads names). */
function mousepadTree(): RawNode<AtspiRef> {
  const file = node('/file', ROLE.MENU, 'File', [
    node('/open', ROLE.MENU_ITEM, 'Open...      '),
    node('/save-all', ROLE.MENU_ITEM, 'Save All      '),
    node('/save', ROLE.MENU_ITEM, 'Save      '),
  ]);
  const edit = node('/edit', ROLE.MENU, 'Edit', [
    node('/copy', ROLE.MENU_ITEM, 'Copy      ', [], false),
    node('/wrap', ROLE.CHECK_MENU_ITEM, 'Word Wrap      '),
  ]);
  return node('/root', ROLE.FRAME, 'mousepad', [node('/bar', ROLE.MENU_BAR, '', [file, edit])]);
}

const BINDINGS: Record<string, string> = {
  '/file': '<Alt>f;<Alt>f;',
  '/open': 'o;<Alt>f:o;<Primary>o',
  '/save-all': 'l;<Alt>f:l;',
  '/save': 's;<Alt>f:s;<Primary>s',
  '/copy': 'c;<Alt>e:c;<Primary>c',
  '/wrap': 'w;<Alt>e:w;<Primary><Shift>w',
};

function fakeClient(fail: (path: string) => Error | undefined = () => undefined) {
  const calls: string[] = [];
  return {
    calls,
    call: (target: [string, string], iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]> => {
      calls.push(`${target[1]} ${iface}.${member}(${signature ?? ''}:${JSON.stringify(body)})`);
      const error = fail(target[1]);
      return error === undefined ? Promise.resolve([BINDINGS[target[1]] ?? '']) : Promise.reject(error);
    },
  };
}

describe('ShortcutReader', () => {
  it('asks each menu item for binding 0 and keeps the accelerators, with their menu and enabled state', async () => {
    const client = fakeClient();
    const shortcuts = await new ShortcutReader(client).read(mousepadTree());
    expect(shortcuts).toEqual([
      { name: 'Open...', shortcut: 'ctrl+o', path: ['File'], enabled: true },
      { name: 'Save', shortcut: 'ctrl+s', path: ['File'], enabled: true },
      { name: 'Copy', shortcut: 'ctrl+c', path: ['Edit'], enabled: false },
      { name: 'Word Wrap', shortcut: 'ctrl+shift+w', path: ['Edit'], enabled: true },
    ]);
    // Menus themselves carry only mnemonics, so they are not asked.
    expect(client.calls).toHaveLength(5);
    expect(client.calls[0]).toBe(`/open ${IFACE.action}.GetKeyBinding(i:[0])`);
  });

  it('reads each item once per app, and takes enabled states from the newest tree', async () => {
    const client = fakeClient();
    const reader = new ShortcutReader(client);
    await reader.read(mousepadTree());
    const tree = mousepadTree();
    const copy = tree.children?.[0]?.children?.[1]?.children?.[0] as RawNode<AtspiRef>;
    copy.states.enabled = true;
    const again = await reader.read(tree);
    expect(client.calls).toHaveLength(5);
    expect(again.find((shortcut) => shortcut.name === 'Copy')?.enabled).toBe(true);
  });

  it('skips an item that vanished, and fails when the app does not answer', async () => {
    const gone = fakeClient((path) =>
      path === '/open'
        ? new DbusCallError('org.freedesktop.DBus.Error.UnknownObject', 'gone', { destination: BUS, path, interface: IFACE.action, member: 'GetKeyBinding' })
        : undefined,
    );
    expect((await new ShortcutReader(gone).read(mousepadTree())).map((shortcut) => shortcut.shortcut)).toEqual(['ctrl+s', 'ctrl+c', 'ctrl+shift+w']);
    const frozen = fakeClient((path) => new DbusTimeoutError({ destination: BUS, path, interface: IFACE.action, member: 'GetKeyBinding' }, 2000));
    await expect(new ShortcutReader(frozen).read(mousepadTree())).rejects.toBeInstanceOf(DbusTimeoutError);
  });

  it('stops asking a frozen app after the first timeout', async () => {
    const frozen = fakeClient((path) => new DbusTimeoutError({ destination: BUS, path, interface: IFACE.action, member: 'GetKeyBinding' }, 2000));
    const many = node('/root', ROLE.FRAME, 'app', [
      node(
        '/menu',
        ROLE.MENU,
        'File',
        Array.from({ length: 200 }, (_unused, index) => node(`/item${index}`, ROLE.MENU_ITEM, `Item ${index}`)),
      ),
    ]);
    await expect(new ShortcutReader(frozen).read(many)).rejects.toBeInstanceOf(DbusTimeoutError);
    // The calls already in flight finish; no new ones start.
    expect(frozen.calls.length).toBeLessThanOrEqual(48);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(new ShortcutReader(fakeClient()).read(mousepadTree(), controller.signal)).rejects.toThrow();
  });
});
