/**
 * macOS virtual key codes (kVK_* in HIToolbox/Events.h, ANSI layout), keyed by the nut-js
 * key names that ../keymap.ts produces, so both drivers share one name → key mapping.
 */
export const MAC_KEY_CODES: Readonly<Record<string, number>> = {
  A: 0x00,
  S: 0x01,
  D: 0x02,
  F: 0x03,
  H: 0x04,
  G: 0x05,
  Z: 0x06,
  X: 0x07,
  C: 0x08,
  V: 0x09,
  B: 0x0b,
  Q: 0x0c,
  W: 0x0d,
  E: 0x0e,
  R: 0x0f,
  Y: 0x10,
  T: 0x11,
  O: 0x1f,
  U: 0x20,
  I: 0x22,
  P: 0x23,
  L: 0x25,
  J: 0x26,
  K: 0x28,
  N: 0x2d,
  M: 0x2e,
  Num1: 0x12,
  Num2: 0x13,
  Num3: 0x14,
  Num4: 0x15,
  Num6: 0x16,
  Num5: 0x17,
  Num9: 0x19,
  Num7: 0x1a,
  Num8: 0x1c,
  Num0: 0x1d,
  Equal: 0x18,
  Minus: 0x1b,
  RightBracket: 0x1e,
  LeftBracket: 0x21,
  Quote: 0x27,
  Semicolon: 0x29,
  Backslash: 0x2a,
  Comma: 0x2b,
  Slash: 0x2c,
  Period: 0x2f,
  Grave: 0x32,
  Enter: 0x24,
  Tab: 0x30,
  Space: 0x31,
  Backspace: 0x33,
  Escape: 0x35,
  Delete: 0x75,
  // Macs have no Insert key; kVK_Help sits where PC keyboards put it.
  Insert: 0x72,
  Home: 0x73,
  PageUp: 0x74,
  End: 0x77,
  PageDown: 0x79,
  Left: 0x7b,
  Right: 0x7c,
  Down: 0x7d,
  Up: 0x7e,
  F1: 0x7a,
  F2: 0x78,
  F3: 0x63,
  F4: 0x76,
  F5: 0x60,
  F6: 0x61,
  F7: 0x62,
  F8: 0x64,
  F9: 0x65,
  F10: 0x6d,
  F11: 0x67,
  F12: 0x6f,
};

/** CGEventFlags masks (IOLLEvent NX_*), by canonical modifier. */
export const MODIFIER_FLAGS = { shift: 0x20000n, ctrl: 0x40000n, alt: 0x80000n, meta: 0x100000n } as const;

const ARROWS = new Set(['Left', 'Right', 'Up', 'Down']);
const FUNCTION_ROW = new Set(['Home', 'End', 'PageUp', 'PageDown', ...Array.from({ length: 12 }, (_unused, index) => `F${index + 1}`)]);
const SECONDARY_FN = 0x800000n;
const NUMERIC_PAD = 0x200000n;

/**
 * Flags a real keyboard sets on a key by itself: apps check them (NSEvent.modifierFlags),
 * and CGEventSetFlags replaces every flag, so they are ORed in here. Arrows report both
 * SecondaryFn and NumericPad; Home/End/Page keys and F-keys report SecondaryFn.
 */
export function intrinsicFlags(key: string): bigint {
  if (ARROWS.has(key)) return SECONDARY_FN | NUMERIC_PAD;
  return FUNCTION_ROW.has(key) ? SECONDARY_FN : 0n;
}
