import type { Modifier } from '../types';
import { formatShortcut } from '../shortcut-format';

/** GTK accelerator modifier names (gtk_accelerator_name) and the modifier each one is. */
const MODIFIERS: Record<string, Modifier | undefined> = {
  primary: 'ctrl',
  control: 'ctrl',
  ctrl: 'ctrl',
  ctl: 'ctrl',
  shift: 'shift',
  shft: 'shift',
  alt: 'alt',
  mod1: 'alt',
  super: 'meta',
  meta: 'meta',
};

/**
 * An accelerator as gtk_accelerator_name writes it ("<Primary><Shift>s", "F11",
 * "<Alt>Up") as a shortcut like `ctrl+shift+s`. Undefined for an empty string, and for a
 * modifier the key action cannot hold (Hyper, Release, Mod2…), rather than a wrong combo.
 */
export function acceleratorToShortcut(accelerator: string): string | undefined {
  const modifiers: Modifier[] = [];
  let rest = accelerator.trim();
  for (let match = /^<([^>]+)>/.exec(rest); match !== null; match = /^<([^>]+)>/.exec(rest)) {
    const modifier = MODIFIERS[(match[1] ?? '').toLowerCase()];
    if (modifier === undefined) return undefined;
    modifiers.push(modifier);
    rest = rest.slice(match[0].length);
  }
  return formatShortcut(modifiers, rest, 'linux');
}

/**
 * Action.GetKeyBinding of a GTK3 menu item is "mnemonic;path;accelerator" (gtkmenuitemaccessible.c):
 * `o;<Alt>f:o;<Primary>o` for File › Open. Only the accelerator works from anywhere in the
 * window, so only it is kept. A binding without semicolons (other toolkits) counts as an
 * accelerator only when it holds a modifier or is a function key, since a bare letter is a mnemonic.
 */
export function keyBindingToShortcut(binding: string): string | undefined {
  const parts = binding.split(';');
  if (parts.length >= 3) return acceleratorToShortcut(parts.slice(2).join(';'));
  if (parts.length === 1 && (/^<[^>]+>/.test(binding) || /^F\d{1,2}$/i.test(binding))) return acceleratorToShortcut(binding);
  return undefined;
}
