import { describe, expect, it } from 'vitest';
import { acceleratorOf, type KeyPress } from './accelerator';

const press = (code: string, key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  code,
  key,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('recording a shortcut', () => {
  it('turns a key press into an Electron accelerator, by physical key', () => {
    expect(acceleratorOf(press('Space', ' ', { ctrlKey: true, altKey: true }), 'linux')).toBe('Control+Alt+Space');
    // Option+D on a Mac types ∂: the physical key is what counts.
    expect(acceleratorOf(press('KeyD', '∂', { altKey: true, metaKey: true }), 'darwin')).toBe('Alt+Command+D');
    expect(acceleratorOf(press('Digit1', '!', { ctrlKey: true, shiftKey: true }), 'linux')).toBe('Control+Shift+1');
    expect(acceleratorOf(press('F9', 'F9'), 'linux')).toBe('F9');
    expect(acceleratorOf(press('KeyK', 'k', { metaKey: true }), 'linux')).toBe('Super+K');
  });

  it('records nothing for modifiers alone, plain or shifted letters, or keys Electron cannot bind', () => {
    expect(acceleratorOf(press('ControlLeft', 'Control', { ctrlKey: true }), 'linux')).toBeUndefined();
    expect(acceleratorOf(press('KeyA', 'a'), 'linux')).toBeUndefined();
    expect(acceleratorOf(press('KeyA', 'A', { shiftKey: true }), 'linux')).toBeUndefined();
    expect(acceleratorOf(press('IntlRo', 'ろ', { ctrlKey: true }), 'linux')).toBeUndefined();
  });
});
