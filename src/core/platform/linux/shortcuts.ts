import { IFACE, ROLE } from '../../../../native/linux/atspi';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import type { RawNode } from '../../ui/ids';
import type { MenuShortcut } from '../types';
import type { AtspiClient, AtspiRef } from './client';
import { keyBindingToShortcut } from './keybinding';
import { mapLimit } from './pool';

const MENU_ITEM_ROLES = new Set<number>([ROLE.MENU_ITEM, ROLE.CHECK_MENU_ITEM, ROLE.RADIO_MENU_ITEM]);
/** Calls in flight at once, as for the tree read. */
const CONCURRENCY = 48;
/** Apps whose bindings are remembered; a bus name is never reused, so old ones only cost memory. */
const MAX_APPS = 32;

interface Candidate {
  node: RawNode<AtspiRef>;
  path: string[];
}

/** Menu items that can carry an accelerator, with the names of the menus above them. */
function menuItems(root: RawNode<AtspiRef>): Candidate[] {
  const found: Candidate[] = [];
  const visit = (node: RawNode<AtspiRef>, path: string[]): void => {
    if (MENU_ITEM_ROLES.has(node.ref.role) && node.ref.interfaces.includes(IFACE.action)) found.push({ node, path });
    const below = node.role === 'menu' && node.name.trim() !== '' ? [...path, node.name.trim()] : path;
    for (const child of node.children ?? []) visit(child, below);
  };
  visit(root, []);
  return found;
}

/**
 * Menu accelerators through Action.GetKeyBinding(0), one call per menu item. The tree
 * read does not pay for them (GTK3 keeps ~100 closed menu items in mousepad's tree); they
 * are read when asked and remembered per object, since an app's accelerators do not change
 * while it runs. Enabled states come from the tree given, so they are current.
 */
export class ShortcutReader {
  private readonly bindings = new Map<string, Map<string, string>>();

  constructor(private readonly client: Pick<AtspiClient, 'call'>) {}

  async read(tree: RawNode<AtspiRef>, signal?: AbortSignal): Promise<MenuShortcut[]> {
    const candidates = menuItems(tree);
    const bus = candidates[0]?.node.ref.bus;
    if (bus === undefined) return [];
    const known = this.appBindings(bus);
    const missing = candidates.filter(({ node }) => !known.has(node.ref.path));
    // After one timeout the app is frozen: the rest of the items are not asked, so a read cannot queue minutes of timeouts.
    let frozen: unknown;
    await mapLimit(missing, CONCURRENCY, async ({ node }) => {
      signal?.throwIfAborted();
      if (frozen !== undefined) throw frozen;
      known.set(node.ref.path, await this.binding(node.ref).catch((error: unknown) => Promise.reject((frozen ??= error))));
    });
    signal?.throwIfAborted();
    const shortcuts: MenuShortcut[] = [];
    for (const { node, path } of candidates) {
      const shortcut = keyBindingToShortcut(known.get(node.ref.path) ?? '');
      if (shortcut === undefined) continue;
      shortcuts.push({ name: node.name.trim(), shortcut, ...(path.length === 0 ? {} : { path }), enabled: node.states.enabled });
    }
    return shortcuts;
  }

  private appBindings(bus: string): Map<string, string> {
    let known = this.bindings.get(bus);
    if (known === undefined) {
      known = new Map();
      this.bindings.set(bus, known);
      if (this.bindings.size > MAX_APPS) this.bindings.delete(this.bindings.keys().next().value as string);
    }
    return known;
  }

  /** A frozen app fails the read (TIMEOUT); an item that vanished or refuses just has no binding. */
  private async binding(ref: AtspiRef): Promise<string> {
    try {
      const [binding] = await this.client.call([ref.bus, ref.path], IFACE.action, 'GetKeyBinding', 'i', [0]);
      return typeof binding === 'string' ? binding : '';
    } catch (error) {
      if (error instanceof DbusTimeoutError) throw error;
      return '';
    }
  }
}
