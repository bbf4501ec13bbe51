import { describe, expect, it } from 'vitest';
import { editingKeys, focusEvent, keyEvent, planKeys } from './window-keys';

/** A GetKeyboardMapping reply for keycodes 8…: two keysyms per keycode, as a US layout has them. */
function mapping(keys: [number, number][]): Buffer {
  const reply = Buffer.alloc(32 + keys.length * 8);
  reply.writeUInt8(1, 0);
  reply.writeUInt8(2, 1);
  keys.forEach(([plain, shifted], index) => {
    reply.writeUInt32LE(plain, 32 + index * 8);
    reply.writeUInt32LE(shifted, 36 + index * 8);
  });
  return reply;
}

// keycode 8: a/A, 9: b/B, 10: 1/!, 11: space, 12: Return, 13: End, 14: BackSpace.
const US = mapping([
  [0x61, 0x41],
  [0x62, 0x42],
  [0x31, 0x21],
  [0x20, 0],
  [0xff0d, 0],
  [0xff57, 0],
  [0xff08, 0],
]);

describe('planKeys', () => {
  it('finds each character’s key and whether it needs shift', () => {
    expect(planKeys(US, 'aB 1!\n')).toEqual([
      { keycode: 8, shift: false },
      { keycode: 9, shift: true },
      { keycode: 11, shift: false },
      { keycode: 10, shift: false },
      { keycode: 10, shift: true },
      { keycode: 12, shift: false },
    ]);
  });

  it('plans nothing when any character has no key, so no text is half typed', () => {
    expect(planKeys(US, 'ab€')).toBeUndefined();
    expect(planKeys(US, '')).toEqual([]);
  });
});

describe('keyEvent', () => {
  it('is a 32-byte core key event aimed at the window, with shift in its state', () => {
    const event = keyEvent(2, { keycode: 9, shift: true }, 0x100, 0x200);
    expect(event).toHaveLength(32);
    expect([event.readUInt8(0), event.readUInt8(1)]).toEqual([2, 9]);
    expect([event.readUInt32LE(4), event.readUInt32LE(8), event.readUInt32LE(12), event.readUInt32LE(16)]).toEqual([0, 0x100, 0x200, 0]);
    expect(event.readUInt16LE(28)).toBe(1);
    expect(event.readUInt8(30)).toBe(1);
    expect(keyEvent(3, { keycode: 8, shift: false }, 1, 2).readUInt16LE(28)).toBe(0);
  });
});

describe('editingKeys', () => {
  it('puts Ctrl+End before the text for a caret that was not placed, Ctrl+A to replace, BackSpace to empty', () => {
    expect(editingKeys(US, 'ab', {})).toEqual({ before: [], after: [] });
    expect(editingKeys(US, 'ab', { toEnd: true })).toEqual({ before: [{ keycode: 13, shift: false, control: true }], after: [] });
    expect(editingKeys(US, 'ab', { replace: true })).toEqual({ before: [{ keycode: 8, shift: false, control: true }], after: [] });
    expect(editingKeys(US, '', { replace: true })).toEqual({ before: [{ keycode: 8, shift: false, control: true }], after: [{ keycode: 14, shift: false }] });
  });

  it('sends nothing when the keyboard lacks a key it needs', () => {
    expect(editingKeys(mapping([[0x61, 0x41]]), 'a', { toEnd: true })).toBeUndefined();
  });

  it('carries Control in the key event’s state', () => {
    expect(keyEvent(2, { keycode: 13, shift: false, control: true }, 1, 2).readUInt16LE(28)).toBe(4);
    expect(keyEvent(2, { keycode: 8, shift: true, control: true }, 1, 2).readUInt16LE(28)).toBe(5);
  });
});

describe('focusEvent', () => {
  it('is a FocusIn or FocusOut about the window, from an unrelated window, not a grab', () => {
    const event = focusEvent(9, 0x300);
    expect(event).toHaveLength(32);
    expect([event.readUInt8(0), event.readUInt8(1), event.readUInt32LE(4), event.readUInt8(8)]).toEqual([9, 3, 0x300, 0]);
    expect(focusEvent(10, 0x300).readUInt8(0)).toBe(10);
  });
});
