/** Menu accelerators read from a real GTK3 app (mousepad) over AT-SPI. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AtspiClient } from '../../src/core/platform/linux/client';
import type { MenuShortcut } from '../../src/core/platform/types';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('menu shortcuts on Linux', () => {
  let desktop: Desktop;
  let pid: number;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    pid = (await desktop.launch('mousepad')).pid;
  }, 60_000);

  afterAll(async () => desktop?.stop());

  const read = (): Promise<MenuShortcut[]> => {
    const { shortcuts } = desktop.platform.accessibility;
    if (shortcuts === undefined) throw new Error('the Linux backend has no shortcuts()');
    return shortcuts.call(desktop.platform.accessibility, pid);
  };

  it("finds mousepad's File menu accelerators, with the menu they are in", async () => {
    const shortcuts = await read();
    expect(shortcuts).toContainEqual({ name: 'Open...', shortcut: 'ctrl+o', path: ['File'], enabled: true });
    expect(shortcuts).toContainEqual({ name: 'Save', shortcut: 'ctrl+s', path: ['File'], enabled: true });
    expect(shortcuts).toContainEqual(expect.objectContaining({ name: 'Save As...', shortcut: 'ctrl+shift+s' }));
    expect(shortcuts).toContainEqual(expect.objectContaining({ name: 'Quit', shortcut: 'ctrl+q' }));
    // Items with only a mnemonic (Save All) have no accelerator to report.
    expect(shortcuts.some((shortcut) => shortcut.name === 'Save All')).toBe(false);
    // Nothing is selected in a new document, so Copy is disabled.
    expect(shortcuts).toContainEqual(expect.objectContaining({ name: 'Copy', shortcut: 'ctrl+c', enabled: false }));
  });

  it('answers a second read from what it remembered', async () => {
    await read();
    // What "remembered" means, counted rather than timed: the second read asks the app for no key binding.
    const calls = vi.spyOn(AtspiClient.prototype, 'call');
    try {
      const again = await read();
      expect(calls.mock.calls.filter(([, , member]) => member === 'GetKeyBinding')).toEqual([]);
      expect(again.find((shortcut) => shortcut.name === 'Save')?.shortcut).toBe('ctrl+s');
    } finally {
      calls.mockRestore();
    }
  });

  it('puts the accelerators in the agent context', async () => {
    const { buildContextMessage } = await import('../../src/core/agent/context-message');
    const context = await buildContextMessage(desktop.engine, desktop.platform, pid);
    const block = /Menu shortcuts[^\n]*\n<ui_data>\n([^\n]*)\n<\/ui_data>/.exec(context)?.[1] ?? '';
    expect(block).toContain('ctrl+o "Open..."');
    expect(block).toContain('ctrl+s "Save"');
    expect(block).not.toContain('"Copy"');
  });
});
