import { describe, expect, it } from 'vitest';
import { canTypeAll, strokeFor, strokeForKeyName } from './keymap';

describe('keymap', () => {
  it('sends shifted symbols with shift, which plain nut-js typing loses', () => {
    expect(strokeFor('!')).toEqual({ key: 'Num1', shift: true });
    expect(strokeFor('A')).toEqual({ key: 'A', shift: true });
    expect(strokeFor('a')).toEqual({ key: 'A', shift: false });
    expect(strokeFor('?')).toEqual({ key: 'Slash', shift: true });
    expect(strokeFor('/')).toEqual({ key: 'Slash', shift: false });
  });

  it('knows what it cannot type', () => {
    expect(canTypeAll('Hello, World! 123 (ok)?')).toBe(true);
    expect(canTypeAll('café')).toBe(false);
    expect(canTypeAll('👍')).toBe(false);
  });

  it('maps contract key names', () => {
    expect(strokeForKeyName('return')).toEqual({ key: 'Enter', shift: false });
    expect(strokeForKeyName('f12')).toEqual({ key: 'F12', shift: false });
    expect(strokeForKeyName('pagedown')).toEqual({ key: 'PageDown', shift: false });
    expect(strokeForKeyName('+')).toEqual({ key: 'Equal', shift: true });
  });
});
