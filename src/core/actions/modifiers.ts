import type { Modifier, PrimaryModifier } from '../platform/types';

const ORDER: Modifier[] = ['ctrl', 'alt', 'shift', 'meta'];

/**
 * Maps the names users and models write to the modifiers the platform has. "cmd" means the
 * platform's primary modifier (Platform.primaryModifier): the command key on macOS, ctrl
 * elsewhere (cmd+s saves on macOS, ctrl+s on Linux). "super", "win" and "meta" always name the logo key.
 */
export function resolveModifier(name: string, primary: PrimaryModifier): Modifier {
  switch (name.toLowerCase()) {
    case 'cmd':
    case 'command':
    case 'mod':
    case 'cmdorctrl':
      return primary;
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
export function resolveModifiers(names: readonly string[], primary: PrimaryModifier): Modifier[] {
  const resolved = new Set(names.map((name) => resolveModifier(name, primary)));
  return ORDER.filter((modifier) => resolved.has(modifier));
}
