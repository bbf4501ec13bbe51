import { describe, expect, it } from 'vitest';
import { menuItemShortcut } from './menu-keys';

describe('menuItemShortcut', () => {
  it('reads the character with the command key unless bit 8 says otherwise', () => {
    expect(menuItemShortcut({ char: 'O', modifiers: 0 })).toBe('cmd+o');
    expect(menuItemShortcut({ char: 'S', modifiers: 1 })).toBe('shift+cmd+s');
    expect(menuItemShortcut({ char: 'F', modifiers: 4 | 2 })).toBe('ctrl+alt+cmd+f');
    expect(menuItemShortcut({ char: 'Q', modifiers: 8 | 4 })).toBe('ctrl+q');
    expect(menuItemShortcut({ char: ',', modifiers: 0 })).toBe('cmd+,');
  });

  it('uses the glyph for keys without a printable character', () => {
    expect(menuItemShortcut({ char: '\u{f704}', modifiers: 8, glyph: 0x6f })).toBe('f1');
    expect(menuItemShortcut({ char: '', modifiers: 0, glyph: 0x17 })).toBe('cmd+backspace');
    expect(menuItemShortcut({ modifiers: 2, glyph: 0x68 })).toBe('alt+cmd+up');
    expect(menuItemShortcut({ modifiers: 0, glyph: 0x0a })).toBe('cmd+delete');
  });

  it('falls back to the virtual key code', () => {
    expect(menuItemShortcut({ char: '', modifiers: 0, virtualKey: 0x7a })).toBe('cmd+f1');
    expect(menuItemShortcut({ char: '', modifiers: 1, virtualKey: 0x18 })).toBe('shift+cmd+=');
  });

  it('finds nothing on an item without a key equivalent', () => {
    expect(menuItemShortcut({})).toBeUndefined();
    expect(menuItemShortcut({ char: '', modifiers: 0 })).toBeUndefined();
    expect(menuItemShortcut({ modifiers: 0, virtualKey: 0 })).toBeUndefined();
    expect(menuItemShortcut({ char: '\u{f8ff}', modifiers: 0, glyph: 0x14 })).toBeUndefined();
  });
});
