import { formatShortcut, normalizeShortcutKey } from '../shortcut-format';
import type { Modifier } from '../types';
import { MAC_KEY_CODES } from './keycodes';

/** AXMenuItemCmdModifiers bits (Carbon kMenu*Modifier): 0 means the command key alone. */
const SHIFT = 1;
const OPTION = 2;
const CONTROL = 4;
const NO_COMMAND = 8;

/**
 * AXMenuItemCmdGlyph values (Carbon Menus.h kMenu*Glyph) for keys that have no character:
 * AppKit reports them for arrows, F-keys, delete and the like.
 */
const GLYPH_KEYS: Readonly<Record<number, string>> = {
  0x02: 'tab',
  0x04: 'return', // Enter
  0x09: 'space',
  0x0a: 'delete', // delete to the right
  0x0b: 'return',
  0x17: 'backspace', // delete to the left
  0x1b: 'escape',
  0x62: 'pageup',
  0x64: 'left',
  0x65: 'right',
  0x66: 'home', // northwest arrow
  0x68: 'up',
  0x69: 'end', // southeast arrow
  0x6a: 'down',
  0x6b: 'pagedown',
  ...Object.fromEntries(Array.from({ length: 12 }, (_unused, index) => [0x6f + index, `f${index + 1}`])),
};

/** nut-js key names (keycodes.ts) that are not already key-action names. */
const NUT_NAMES: Readonly<Record<string, string>> = {
  Equal: '=',
  Minus: '-',
  RightBracket: ']',
  LeftBracket: '[',
  Quote: "'",
  Semicolon: ';',
  Backslash: '\\',
  Comma: ',',
  Slash: '/',
  Period: '.',
  Grave: '`',
  Enter: 'return',
};

const KEY_BY_CODE = new Map(Object.entries(MAC_KEY_CODES).map(([name, code]) => [code, NUT_NAMES[name] ?? name.replace(/^Num(\d)$/, '$1')]));

/** AppKit's function-key characters (NSUpArrowFunctionKey U+F700 …) and control characters name no printable key. */
function printable(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return [...character].length === 1 && code >= 0x20 && code !== 0x7f && !(code >= 0xf700 && code <= 0xf8ff);
}

export interface MenuKeyAttributes {
  char?: unknown;
  modifiers?: unknown;
  virtualKey?: unknown;
  glyph?: unknown;
}

/**
 * A menu item's key equivalent as a shortcut like `shift+cmd+s`: the character when it
 * is printable, else the glyph, else the virtual key code. Undefined when the item has none.
 */
export function menuItemShortcut(attributes: MenuKeyAttributes): string | undefined {
  const bits = typeof attributes.modifiers === 'number' ? attributes.modifiers : 0;
  let key: string | undefined;
  if (typeof attributes.char === 'string' && printable(attributes.char)) key = normalizeShortcutKey(attributes.char);
  if (key === undefined && typeof attributes.glyph === 'number') key = GLYPH_KEYS[attributes.glyph];
  if (key === undefined && typeof attributes.virtualKey === 'number') {
    const name = KEY_BY_CODE.get(attributes.virtualKey);
    // An item without any key equivalent can report virtual key 0, which is also kVK_ANSI_A.
    if (name !== undefined && (attributes.virtualKey !== 0 || attributes.char !== undefined)) key = normalizeShortcutKey(name);
  }
  if (key === undefined) return undefined;
  const modifiers: Modifier[] = [];
  if ((bits & NO_COMMAND) === 0) modifiers.push('meta');
  if ((bits & SHIFT) !== 0) modifiers.push('shift');
  if ((bits & OPTION) !== 0) modifiers.push('alt');
  if ((bits & CONTROL) !== 0) modifiers.push('ctrl');
  return formatShortcut(modifiers, key, 'darwin');
}
