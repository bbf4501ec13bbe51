import { describe, expect, it } from 'vitest';
import { formatShortcut, normalizeShortcutKey } from './shortcut-format';

describe('formatShortcut', () => {
  it('puts modifiers in one order whatever order they came in', () => {
    expect(formatShortcut(['shift', 'ctrl'], 's', 'linux')).toBe('ctrl+shift+s');
    expect(formatShortcut(['meta', 'alt', 'shift', 'ctrl'], 'x', 'linux')).toBe('ctrl+alt+shift+meta+x');
  });

  it('writes the command key as cmd on macOS', () => {
    expect(formatShortcut(['meta', 'shift'], 'S', 'darwin')).toBe('shift+cmd+s');
    expect(formatShortcut(['meta'], 'o', 'linux')).toBe('meta+o');
  });

  it('names keys the way the key action does', () => {
    expect(formatShortcut(['ctrl'], 'Page_Up', 'linux')).toBe('ctrl+pageup');
    expect(formatShortcut([], 'F11', 'linux')).toBe('f11');
    expect(formatShortcut(['ctrl'], 'plus', 'linux')).toBe('ctrl++');
    expect(formatShortcut(['alt'], 'Up', 'linux')).toBe('alt+up');
    expect(formatShortcut([], 'Delete', 'linux')).toBe('delete');
  });

  it('gives up on keys the key action cannot press', () => {
    expect(formatShortcut(['ctrl'], 'XF86AudioPlay', 'linux')).toBeUndefined();
    expect(normalizeShortcutKey('')).toBeUndefined();
  });
});
