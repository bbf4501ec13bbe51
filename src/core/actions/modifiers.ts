import type { Modifier } from '../platform/types';

const ORDER: Modifier[] = ['ctrl', 'alt', 'shift', 'meta'];

/**
 * Maps the names users and models write to the modifiers the platform has. "cmd" means
 * the command key on macOS; elsewhere it means what cmd does there, ctrl (cmd+s saves on
 * macOS, ctrl+s on Linux). "super", "win" and "meta" always name the logo key.
 */
export function resolveModifier(name: string, platform: string): Modifier {
  switch (name.toLowerCase()) {
    case 'cmd':
    case 'command':
    case 'mod':
    case 'cmdorctrl':
      return platform === 'darwin' ? 'meta' : 'ctrl';
    case 'meta':
    case 'super':
    case 'win':
      return 'meta';
    case 'ctrl':
    case 'control':
      return 'ctrl';
    case 'alt':
    case 'option':
    case 'opt':
      return 'alt';
    case 'shift':
      return 'shift';
    default:
      throw new Error(`unknown modifier '${name}' passed validation`);
  }
}

/** Canonical, de-duplicated and in a fixed order, so "shift+ctrl" and "ctrl+shift" are one combo. */
export function resolveModifiers(names: readonly string[], platform: string): Modifier[] {
  const resolved = new Set(names.map((name) => resolveModifier(name, platform)));
  return ORDER.filter((modifier) => resolved.has(modifier));
}
