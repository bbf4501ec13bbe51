import type { Pointer, MacNative } from '../../../../native/macos';
import type { Modifier } from '../types';
import { MAC_KEY_CODES, MODIFIER_FLAGS } from './keycodes';

/** kCGKeyboardEventKeycode (CGEventTypes.h). */
const KEYCODE_FIELD = 9;
/** kVK_ANSI_KeypadEnter: Return on the number pad. */
const KEYPAD_ENTER = 0x4c;

/** nut-js key names (keycodes.ts) as the key action names them, for keys with a name of their own. */
const NAMED: Readonly<Record<string, string>> = {
  Enter: 'return',
  Tab: 'tab',
  Space: 'space',
  Backspace: 'backspace',
  Escape: 'escape',
  Delete: 'delete',
  Home: 'home',
  End: 'end',
  PageUp: 'pageup',
  PageDown: 'pagedown',
  Left: 'left',
  Right: 'right',
  Up: 'up',
  Down: 'down',
  ...Object.fromEntries(Array.from({ length: 12 }, (_unused, index) => [`F${index + 1}`, `f${index + 1}`])),
};

const BY_CODE = new Map<number, string>();
/** Letters and digits by key code on the ANSI layout: the key of a shortcut whose character the modifiers changed. */
const ANSI = new Map<number, string>();
for (const [name, code] of Object.entries(MAC_KEY_CODES)) {
  const named = NAMED[name];
  if (named !== undefined) BY_CODE.set(code, named);
  else if (/^[A-Z]$/.test(name)) ANSI.set(code, name.toLowerCase());
  else if (/^Num\d$/.test(name)) ANSI.set(code, name.slice(3));
}
BY_CODE.set(KEYPAD_ENTER, 'return');

/** The modifiers held, from CGEventFlags: command is meta, as the key action spells ⌘. */
export function modifiersOf(flags: bigint): Modifier[] {
  return (Object.entries(MODIFIER_FLAGS) as [Modifier, bigint][]).filter(([, mask]) => (flags & mask) !== 0n).map(([modifier]) => modifier);
}

/**
 * A key-down as the key action names it: a named key by its code, else the character the event
 * carries (CGEventKeyboardGetUnicodeString: what the current layout typed), lower-cased like the
 * X recorder's keysyms. With control or option held the character is a control code or an
 * option symbol (⌥s is ß), so the ANSI key is named instead. Undefined for keys with no name.
 */
export function keyOf(native: MacNative, event: Pointer): { key: string; modifiers: Modifier[] } | undefined {
  const code = Number(native.CGEventGetIntegerValueField(event, KEYCODE_FIELD));
  const modifiers = modifiersOf(BigInt(native.CGEventGetFlags(event)));
  const named = BY_CODE.get(code);
  if (named !== undefined) return { key: named, modifiers };
  const buffer = new Uint16Array(4);
  const length: [number | bigint] = [0];
  native.CGEventKeyboardGetUnicodeString(event, buffer.length, length, buffer);
  const text = String.fromCharCode(...buffer.subarray(0, Math.min(Number(length[0]), buffer.length)));
  const ansi = ANSI.get(code);
  if ((modifiers.includes('ctrl') || modifiers.includes('alt')) && ansi !== undefined) return { key: ansi, modifiers };
  // One character (a surrogate pair counts as one) and nothing unprintable.
  const unprintable = [...text].some((char) => (char.codePointAt(0) ?? 0) < 0x20 || char === '\u007f');
  if ([...text].length !== 1 || unprintable) return ansi === undefined ? undefined : { key: ansi, modifiers };
  return { key: text.toLowerCase(), modifiers };
}
