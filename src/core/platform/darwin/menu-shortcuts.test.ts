import { afterEach, describe, expect, it, vi } from 'vitest';
import { MENU_ATTRIBUTES, MENU_CACHE_MS } from './menu-shortcuts';
import { harness } from './testing/setup';
import { sampleApp, type FakeApp, type FakeNode } from './testing/fake-world';

const item = (title: string, extra: Partial<FakeNode> = {}): FakeNode => ({ role: 'AXMenuItem', title, ...extra });
const menu = (title: string, items: FakeNode[]): FakeNode => ({ role: 'AXMenuBarItem', title, children: [{ role: 'AXMenu', children: items }] });

/** A TextEdit-like menu bar; AppKit reports uppercase characters and a modifier mask where 0 is cmd alone. */
function appWithMenus(): FakeApp {
  return {
    ...sampleApp(),
    menuBar: {
      role: 'AXMenuBar',
      children: [
        menu('Apple', [item('About This Mac')]),
        menu('File', [
          item('Open…', { cmdChar: 'O', cmdModifiers: 0, cmdVirtualKey: 0x1f }),
          item('Save As…', { cmdChar: 'S', cmdModifiers: 1 }),
          item(''),
          item('Open Recent', { children: [{ role: 'AXMenu', children: [item('Clear Menu')] }] }),
        ]),
        menu('Edit', [
          item('Copy', { cmdChar: 'C', cmdModifiers: 0, enabled: false }),
          item('Delete', { cmdChar: '', cmdModifiers: 0, cmdGlyph: 0x17 }),
          item('Find', { children: [{ role: 'AXMenu', children: [item('Find Next', { cmdChar: 'G', cmdModifiers: 0 })] }] }),
        ]),
        menu('View', [item('Enter Full Screen', { cmdChar: 'F', cmdModifiers: 4 })]),
      ],
    },
  };
}

/** Elements in the menu bar above: the bar, 4 bar items, 4 menus, 11 items, 2 submenus. */
const MENU_ELEMENTS = 22;

afterEach(() => {
  vi.useRealTimers();
});

describe('darwin menu shortcuts', () => {
  it("reads every menu item's key equivalent with its menu path and enabled state", async () => {
    const test = await harness([appWithMenus()]);
    const shortcuts = await test.platform.accessibility.shortcuts?.(501);
    expect(shortcuts).toEqual([
      { name: 'Open…', shortcut: 'cmd+o', path: ['File'], enabled: true },
      { name: 'Save As…', shortcut: 'shift+cmd+s', path: ['File'], enabled: true },
      { name: 'Copy', shortcut: 'cmd+c', path: ['Edit'], enabled: false },
      { name: 'Delete', shortcut: 'cmd+backspace', path: ['Edit'], enabled: true },
      { name: 'Find Next', shortcut: 'cmd+g', path: ['Edit', 'Find'], enabled: true },
      { name: 'Enter Full Screen', shortcut: 'ctrl+cmd+f', path: ['View'], enabled: true },
    ]);
    await test.finish();
  });

  it('makes one AXMenuBar copy, then one async batch per menu element with the menu attributes', async () => {
    const test = await harness([appWithMenus()]);
    await test.platform.accessibility.shortcuts?.(501);
    const copies = test.fake.callsOf('AXUIElementCopyAttributeValue');
    expect(copies.map((call) => [call.args[1], call.async])).toEqual([['AXMenuBar', true]]);
    const batches = test.fake.callsOf('AXUIElementCopyMultipleAttributeValues');
    expect(batches).toHaveLength(MENU_ELEMENTS);
    for (const batch of batches) {
      expect(batch.async).toBe(true);
      expect(batch.args[1]).toEqual([...MENU_ATTRIBUTES]);
      expect(batch.args[2]).toBe(0);
    }
    // One attribute-name array per read, released with everything else (finish checks the heap).
    expect(test.fake.callsOf('CFArrayCreate')).toHaveLength(1);
    expect(test.fake.callsOf('AXUIElementCreateApplication')).toHaveLength(1);
    await test.finish();
  });

  it('answers again from memory, and reads the menus again once the memory is old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const test = await harness([appWithMenus()]);
    const read = () => test.platform.accessibility.shortcuts?.(501);
    await read();
    await read();
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')).toHaveLength(MENU_ELEMENTS);
    vi.setSystemTime(Date.now() + MENU_CACHE_MS);
    await read();
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')).toHaveLength(2 * MENU_ELEMENTS);
    await test.finish();
  });

  it('leaves the tree read as it was: no menu bar, no menu attributes', async () => {
    const test = await harness([appWithMenus()]);
    await test.platform.accessibility.getTree(501, { maxNodes: 40 });
    expect(test.fake.callsOf('AXUIElementCopyAttributeValue').map((call) => call.args[1])).not.toContain('AXMenuBar');
    for (const batch of test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')) expect(batch.args[1]).not.toContain('AXMenuItemCmdChar');
    await test.finish();
  });

  it('returns nothing for an app without a menu bar, and fails for a hung or exited app without leaking', async () => {
    const bare: FakeApp = { ...sampleApp(502), menuBar: { role: 'AXMenuBar' } };
    const hung: FakeApp = { ...appWithMenus(), pid: 503, hung: true };
    const dead: FakeApp = { ...appWithMenus(), pid: 504, dead: true };
    const test = await harness([bare, hung, dead]);
    await expect(test.platform.accessibility.shortcuts?.(502)).resolves.toEqual([]);
    await expect(test.platform.accessibility.shortcuts?.(503)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(test.platform.accessibility.shortcuts?.(504)).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
    await test.finish();
  });

  it('reads a batch shorter than asked up to its end, and a CFNumber 0 for AXEnabled as disabled (issue 20, points 8 and 9)', async () => {
    const app = appWithMenus();
    const file = app.menuBar?.children?.[1]?.children?.[0]?.children ?? [];
    // Four slots: AXRole, AXTitle, AXEnabled, AXMenuItemCmdChar; the modifiers slot is missing, so cmd alone.
    file.unshift(item('Print…', { cmdChar: 'P', cmdModifiers: 1, batchShort: 4, numericFlags: true, enabled: false }));
    const test = await harness([app]);
    const shortcuts = await test.platform.accessibility.shortcuts?.(501);
    expect(shortcuts?.[0]).toEqual({ name: 'Print…', shortcut: 'cmd+p', path: ['File'], enabled: false });
    await test.finish();
  });

  it('stops when aborted', async () => {
    const test = await harness([appWithMenus()]);
    const controller = new AbortController();
    controller.abort();
    await expect(test.platform.accessibility.shortcuts?.(501, controller.signal)).rejects.toThrow();
    await test.finish();
  });
});
