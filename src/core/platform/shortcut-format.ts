import { normalizeKeyName } from '../../shared/keys';
import type { Modifier, PlatformName } from './types';

const ORDER: Modifier[] = ['ctrl', 'alt', 'shift', 'meta'];

/**
 * Punctuation as X keysym names (what GTK's accelerator strings use) and as AppKit
 * writes it; the key action wants the character itself.
 */
const KEY_NAMES: Record<string, string> = {
  plus: '+',
  minus: '-',
  equal: '=',
  comma: ',',
  period: '.',
  slash: '/',
  backslash: '\\',
  semicolon: ';',
  apostrophe: "'",
  grave: '`',
  bracketleft: '[',
  bracketright: ']',
  kp_add: '+',
  kp_subtract: '-',
  kp_multiply: '*',
  kp_divide: '/',
  kp_enter: 'return',
};

/** A key name from a toolkit, in the key action's vocabulary, or undefined when it has no name there. */
export function normalizeShortcutKey(key: string): string | undefined {
  if (key === '') return undefined;
  const mapped = KEY_NAMES[key.toLowerCase()] ?? key;
  return normalizeKeyName(mapped);
}

/**
 * `ctrl+shift+s`: modifiers in the order the key action resolves them, then the key. On
 * macOS the command key is written cmd, the name users and models know it by (the key
 * action maps cmd to it there).
 */
export function formatShortcut(modifiers: Iterable<Modifier>, key: string, platform: PlatformName): string | undefined {
  const normalized = normalizeShortcutKey(key);
  if (normalized === undefined) return undefined;
  const held = new Set(modifiers);
  const names = ORDER.filter((modifier) => held.has(modifier)).map((modifier) => (modifier === 'meta' && platform === 'darwin' ? 'cmd' : modifier));
  return [...names, normalized].join('+');
}
