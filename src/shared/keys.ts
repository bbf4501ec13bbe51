/**
 * Key and modifier names accepted by the `key` action. Names are case-insensitive and
 * several spellings map to one canonical name, because models write "Enter", "return"
 * and "⏎" interchangeably.
 */
export const NAMED_KEYS = [
  'return',
  'escape',
  'tab',
  'space',
  'backspace',
  'delete',
  'up',
  'down',
  'left',
  'right',
  'home',
  'end',
  'pageup',
  'pagedown',
  'insert',
  ...Array.from({ length: 12 }, (_unused, index) => `f${index + 1}`),
] as const;

const KEY_ALIASES: Record<string, string> = {
  enter: 'return',
  esc: 'escape',
  del: 'delete',
  forwarddelete: 'delete',
  arrowup: 'up',
  arrowdown: 'down',
  arrowleft: 'left',
  arrowright: 'right',
  pgup: 'pageup',
  pgdn: 'pagedown',
  pagedn: 'pagedown',
  ins: 'insert',
  spacebar: 'space',
  ' ': 'space',
};

/** Modifier names as written by users and models; `cmd` and `mod` are resolved per platform later. */
export const MODIFIER_NAMES = ['cmd', 'command', 'mod', 'cmdorctrl', 'meta', 'super', 'win', 'ctrl', 'control', 'alt', 'option', 'opt', 'shift'] as const;

export type ModifierName = (typeof MODIFIER_NAMES)[number];

/** Returns the canonical key name (a named key or one printable character), or undefined. */
export function normalizeKeyName(key: string): string | undefined {
  if ([...key].length === 1) return key.toLowerCase() === key.toUpperCase() ? key : key.toLowerCase();
  const lower = key
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');
  const canonical = KEY_ALIASES[lower] ?? lower;
  return (NAMED_KEYS as readonly string[]).includes(canonical) ? canonical : undefined;
}

export function isModifierName(name: string): name is ModifierName {
  return (MODIFIER_NAMES as readonly string[]).includes(name.toLowerCase());
}

/** Splits "ctrl+shift+s" into the key and its modifiers. A lone "+" is the plus key. */
export function splitCombo(combo: string): { key: string; modifiers: string[] } {
  if (combo === '+' || !combo.includes('+')) return { key: combo, modifiers: [] };
  const parts = combo.split('+');
  const last = parts.pop() ?? '';
  const key = last === '' ? '+' : last;
  return { key, modifiers: parts.filter((part) => part !== '').map((part) => part.trim()) };
}
