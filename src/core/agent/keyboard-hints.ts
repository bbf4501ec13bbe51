import { clip } from '../../shared/clip';
import type { Role, UiNode } from '../../shared/ui-node';
import type { MenuShortcut, PrimaryModifier } from '../platform/types';

/**
 * The standard keys of a focused control, as the toolkits (GTK, AppKit, Chromium) and the
 * ARIA authoring practices define them for its role. Nothing here is read from the app;
 * the app's own menu accelerators come from the platform (shortcutHints below).
 */
const ROLE_KEYS: Partial<Record<Role, string[]>> = {
  button: ['space or return presses it'],
  togglebutton: ['space toggles it'],
  checkbox: ['space toggles it'],
  switch: ['space toggles it'],
  radio: ['up/down or left/right choose the next option in the group'],
  slider: ['left/right or up/down move one step', 'pageup/pagedown move a large step', 'home/end go to the minimum/maximum'],
  spinbutton: ['up/down change the value by one step', 'typing replaces the selected number'],
  textfield: ['typing inserts at the caret', '{mod}+a selects all', 'backspace deletes', 'return submits or activates the default button'],
  textarea: ['typing inserts at the caret', '{mod}+a selects all', 'return starts a new line'],
  combobox: ['alt+down opens the list', 'up/down change the choice', 'return accepts', 'escape closes the list'],
  list: ['up/down move the selection', 'home/end go to the first/last item'],
  listitem: ['up/down move the selection', 'home/end go to the first/last item', 'return activates the item'],
  tree: ['up/down move', 'left/right collapse/expand'],
  treeitem: ['up/down move', 'left/right collapse/expand', 'return activates the item'],
  table: ['arrow keys move between cells'],
  row: ['up/down move between rows'],
  cell: ['arrow keys move between cells'],
  menu: ['up/down move', 'return activates', 'right opens a submenu', 'escape closes the menu'],
  menuitem: ['up/down move', 'return activates', 'right opens a submenu', 'escape closes the menu'],
  menubar: ['left/right move between menus', 'down opens a menu'],
  tab: ['left/right switch tabs'],
  tablist: ['left/right switch tabs'],
  link: ['return follows the link'],
  document: ['arrow keys move the caret', 'pageup/pagedown scroll', '{mod}+home/{mod}+end go to the start/end'],
};

const ALWAYS = ['tab / shift+tab move focus to the next/previous control', 'escape closes a popup, menu or dialog'];

/** Key hints for the context message; `{mod}` is the platform's primary modifier, written cmd where it is ⌘. */
export function keyboardHints(focused: UiNode | undefined, primary: PrimaryModifier): string[] {
  const mod = primary === 'meta' ? 'cmd' : 'ctrl';
  const own = focused === undefined || !focused.states.enabled ? [] : (ROLE_KEYS[focused.role] ?? []);
  return [...own, ...ALWAYS].map((hint) => hint.replaceAll('{mod}', mod));
}

/** Shortcuts in the context: enough for the common commands, few enough to cost ~160 tokens (mousepad's 20: 155). */
export const MAX_SHORTCUTS = 20;
const MAX_NAME = 40;
/** The menus whose commands a request most often needs; English names, as most apps ship them. */
const PREFERRED_MENUS = ['file', 'edit', 'view'];

/** File, Edit, View, then the rest; within each, items of the menu itself before those of its submenus. */
function menuRank(shortcut: MenuShortcut): number {
  const top = shortcut.path?.[0]?.trim().toLowerCase() ?? '';
  const rank = PREFERRED_MENUS.indexOf(top);
  return 2 * (rank < 0 ? PREFERRED_MENUS.length : rank) + ((shortcut.path?.length ?? 0) > 1 ? 1 : 0);
}

/**
 * The app's menu accelerators as `ctrl+o "Open…", ctrl+s "Save", …`: enabled items only,
 * File, Edit and View first (submenu items after the menu's own, then the app's order),
 * one entry per key combination, at most `limit`. Names are UI text; the caller quotes the line as data.
 */
export function shortcutHints(shortcuts: readonly MenuShortcut[], limit = MAX_SHORTCUTS): string {
  const seen = new Set<string>();
  const picked: string[] = [];
  const ordered = shortcuts
    .map((shortcut, index) => ({ shortcut, index }))
    .filter(({ shortcut }) => shortcut.enabled && shortcut.name.trim() !== '')
    .sort((a, b) => menuRank(a.shortcut) - menuRank(b.shortcut) || a.index - b.index);
  for (const { shortcut } of ordered) {
    if (picked.length >= limit) break;
    if (seen.has(shortcut.shortcut)) continue;
    seen.add(shortcut.shortcut);
    const name = shortcut.name.trim();
    picked.push(`${shortcut.shortcut} ${JSON.stringify(clip(name, MAX_NAME))}`);
  }
  return picked.join(', ');
}
