/**
 * Characters and key names as keys on a US layout, the layout synthetic input assumes
 * (Xvfb's default). nut-js types "!" as "1", so shifted characters are sent as Shift+key.
 */
/**
 * The longest text typed as keys, one key pair per character: through the user's keyboard (which
 * it holds all the while: macOS paces keys 15 ms apart, so 4,096 characters take two minutes) or
 * sent to one window (X11). A longer text goes only where the element takes inserted text.
 */
export const MAX_TYPED_KEYS = 4096;

export interface KeyStroke {
  /** A nut-js Key enum name, such as "A", "Num1", "Minus", "Enter". */
  key: string;
  shift: boolean;
}

const UNSHIFTED: Record<string, string> = {
  ' ': 'Space',
  '\n': 'Enter',
  '\t': 'Tab',
  '-': 'Minus',
  '=': 'Equal',
  '[': 'LeftBracket',
  ']': 'RightBracket',
  '\\': 'Backslash',
  ';': 'Semicolon',
  "'": 'Quote',
  ',': 'Comma',
  '.': 'Period',
  '/': 'Slash',
  '`': 'Grave',
};

const SHIFTED: Record<string, string> = {
  '!': 'Num1',
  '@': 'Num2',
  '#': 'Num3',
  $: 'Num4',
  '%': 'Num5',
  '^': 'Num6',
  '&': 'Num7',
  '*': 'Num8',
  '(': 'Num9',
  ')': 'Num0',
  _: 'Minus',
  '+': 'Equal',
  '{': 'LeftBracket',
  '}': 'RightBracket',
  '|': 'Backslash',
  ':': 'Semicolon',
  '"': 'Quote',
  '<': 'Comma',
  '>': 'Period',
  '?': 'Slash',
  '~': 'Grave',
};

const NAMED: Record<string, string> = {
  return: 'Enter',
  escape: 'Escape',
  tab: 'Tab',
  space: 'Space',
  backspace: 'Backspace',
  delete: 'Delete',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  insert: 'Insert',
};

export const MODIFIER_KEYS = { ctrl: 'LeftControl', alt: 'LeftAlt', shift: 'LeftShift', meta: 'LeftSuper' } as const;

/** The keystroke for one character, or undefined when the keyboard has no key for it. */
export function strokeFor(character: string): KeyStroke | undefined {
  if (/^[a-z]$/.test(character)) return { key: character.toUpperCase(), shift: false };
  if (/^[A-Z]$/.test(character)) return { key: character, shift: true };
  if (/^[0-9]$/.test(character)) return { key: `Num${character}`, shift: false };
  if (character in UNSHIFTED) return { key: UNSHIFTED[character] as string, shift: false };
  if (character in SHIFTED) return { key: SHIFTED[character] as string, shift: true };
  return undefined;
}

/** A canonical key name from the action contract (see src/shared/keys.ts) as a keystroke. */
export function strokeForKeyName(name: string): KeyStroke | undefined {
  if (name in NAMED) return { key: NAMED[name] as string, shift: false };
  if (/^f([1-9]|1[0-2])$/.test(name)) return { key: name.toUpperCase(), shift: false };
  return strokeFor(name);
}

export function canTypeAll(text: string): boolean {
  return [...text].every((character) => strokeFor(character) !== undefined);
}
