/** Keys that only modify: pressing one alone records nothing yet. */
const MODIFIER_KEYS = new Set(['Control', 'Alt', 'Shift', 'Meta', 'OS', 'AltGraph', 'Super', 'Hyper']);

const NAMED: Readonly<Record<string, string>> = {
  Space: 'Space',
  Enter: 'Return',
  Tab: 'Tab',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Minus: '-',
  Equal: '=',
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Semicolon: ';',
  Quote: "'",
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`',
};

/** The part of a KeyboardEvent a shortcut is made of. */
export interface KeyPress {
  code: string;
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/**
 * A key press as an Electron accelerator (`Control+Alt+Space`), by physical key (`code`), so a
 * layout's Alt-symbols do not change what is recorded. Undefined while only modifiers are down,
 * for keys Electron cannot bind, and for a plain key without a modifier (it would swallow typing);
 * function keys may stand alone.
 */
export function acceleratorOf(press: KeyPress, platform: string): string | undefined {
  if (MODIFIER_KEYS.has(press.key)) return undefined;
  const key = /^Key[A-Z]$/.test(press.code)
    ? press.code.slice(3)
    : /^Digit\d$/.test(press.code)
      ? press.code.slice(5)
      : /^F([1-9]|1\d|2[0-4])$/.test(press.code)
        ? press.code
        : NAMED[press.code];
  if (key === undefined) return undefined;
  const modifiers = [
    ...(press.ctrlKey ? ['Control'] : []),
    ...(press.altKey ? ['Alt'] : []),
    ...(press.shiftKey ? ['Shift'] : []),
    ...(press.metaKey ? [platform === 'darwin' ? 'Command' : 'Super'] : []),
  ];
  const alone = /^F\d+$/.test(key);
  if (modifiers.length === 0 && !alone) return undefined;
  // Shift alone with a letter is just a capital letter: typing it anywhere would fire the shortcut.
  if (modifiers.length === 1 && modifiers[0] === 'Shift' && !alone) return undefined;
  return [...modifiers, key].join('+');
}
