import { describe, expect, it } from 'vitest';
import type { MenuShortcut } from '../platform/types';
import { FIXTURE_MENU } from '../platform/fake/fixture-app';
import { MAX_SHORTCUTS, shortcutHints } from './keyboard-hints';

const item = (name: string, shortcut: string, menu: string, enabled = true): MenuShortcut => ({ name, shortcut, path: [menu], enabled });

describe('shortcutHints', () => {
  it('lists enabled items as key then quoted name, File, Edit and View first', () => {
    expect(shortcutHints(FIXTURE_MENU)).toBe(
      'ctrl+n "New", ctrl+o "Open…", ctrl+s "Save", ctrl+q "Quit", ctrl+v "Paste", f11 "Fullscreen", ctrl+f "Find", f1 "Contents"',
    );
  });

  it("puts a menu's own items before its submenus' items", () => {
    const hints = shortcutHints([
      { name: 'Line Up', shortcut: 'alt+up', path: ['Edit', 'Move'], enabled: true },
      item('Find', 'ctrl+f', 'Search'),
      item('Paste', 'ctrl+v', 'Edit'),
    ]);
    expect(hints).toBe('ctrl+v "Paste", alt+up "Line Up", ctrl+f "Find"');
  });

  it('keeps the first item of a key combination, and caps the count', () => {
    const many = Array.from({ length: 40 }, (_unused, index) => item(`Tool ${index}`, `ctrl+alt+${String.fromCharCode(97 + (index % 26))}`, 'Tools'));
    const hints = shortcutHints([...many, item('Save', 'ctrl+s', 'File'), item('Save again', 'ctrl+s', 'File')]);
    const entries = hints.split(', ');
    expect(entries).toHaveLength(MAX_SHORTCUTS);
    expect(entries[0]).toBe('ctrl+s "Save"');
    expect(hints).not.toContain('Save again');
    expect(new Set(entries.map((entry) => entry.split(' ')[0])).size).toBe(entries.length);
  });

  it('cuts long names and escapes quotes, and says nothing when nothing is enabled', () => {
    const hints = shortcutHints([item(`Export "${'x'.repeat(60)}"`, 'ctrl+e', 'File')]);
    expect(hints).toMatch(/^ctrl\+e "Export \\"x+…"$/);
    expect(shortcutHints([item('Copy', 'ctrl+c', 'Edit', false)])).toBe('');
    expect(shortcutHints([{ name: 'Top', shortcut: 'f5', enabled: true }])).toBe('f5 "Top"');
  });
});
