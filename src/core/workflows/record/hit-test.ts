import type { Role, UiNode } from '../../../shared/ui-node';
import type { HitElement } from '../../platform/types';

/** Roles a click means something on; a click on a label inside a button is a click on the button. */
const CLICKABLE: ReadonlySet<Role> = new Set<Role>([
  'button',
  'togglebutton',
  'checkbox',
  'radio',
  'switch',
  'menuitem',
  'listitem',
  'treeitem',
  'tab',
  'link',
  'cell',
  'row',
  'combobox',
  'slider',
  'spinbutton',
  'textfield',
  'textarea',
]);

/** Roles typed text lands in. */
export const TEXT_ROLES: ReadonlySet<Role> = new Set<Role>(['textfield', 'textarea', 'spinbutton', 'combobox']);

function contains(node: UiNode, x: number, y: number): boolean {
  const bounds = node.bounds;
  return (
    bounds !== undefined &&
    bounds.width > 0 &&
    bounds.height > 0 &&
    x >= bounds.x &&
    y >= bounds.y &&
    x < bounds.x + bounds.width &&
    y < bounds.y + bounds.height
  );
}

/** The deepest clickable node under (x, y) in one subtree, or undefined. */
function deepestAt(root: UiNode, x: number, y: number, limit: number): UiNode | undefined {
  let chain: UiNode[] = [];
  const stack: { node: UiNode; path: UiNode[] }[] = [{ node: root, path: [] }];
  let seen = 0;
  while (stack.length > 0 && seen < limit) {
    const { node, path } = stack.pop() as { node: UiNode; path: UiNode[] };
    seen += 1;
    const here = [...path, node];
    // A shut menu's items may keep the extents they had when open: the toolkit says they are not showing.
    if (node.states.visible === false) continue;
    // Containers without bounds (a panel the toolkit does not place) are walked through.
    if (node.bounds !== undefined && !contains(node, x, y)) continue;
    if (node.bounds !== undefined && here.length > chain.length) chain = here;
    for (const child of node.children ?? []) stack.push({ node: child, path: here });
  }
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const node = chain[index] as UiNode;
    if (CLICKABLE.has(node.role)) return node;
  }
  return undefined;
}

/** Most popups looked through before the windows below them. */
const MAX_POPUPS = 32;

/**
 * The layers that sit above the app's windows, topmost first: top-level windows that are popups
 * (a menu, or an untitled window: Qt's combo list, a GTK 3 combo's own window), newest first since
 * the registry lists windows in the order they opened; then menus and popovers held inside the tree
 * (a GTK 3 combo box's menu, a GTK 4 drop-down's popover), which pop out of their parent's bounds
 * over the widgets next to it. Closed ones have no extents or say they are not showing.
 */
export function popupLayers(root: UiNode, limit = 50_000): UiNode[] {
  const top = root.children ?? [];
  const layers: UiNode[] = [];
  for (let index = top.length - 1; index > 0 && layers.length < MAX_POPUPS; index -= 1) {
    const window = top[index] as UiNode;
    if (POPUP_ROLES.has(window.role) || (window.role === 'window' && window.name.trim() === '')) layers.push(window);
  }
  let seen = 0;
  const stack = top.filter((window) => !layers.includes(window)).map((node) => ({ node, inCombo: false }));
  while (stack.length > 0 && seen < limit && layers.length < MAX_POPUPS) {
    const { node, inCombo } = stack.pop() as { node: UiNode; inCombo: boolean };
    seen += 1;
    // A combo box that says it is collapsed has no list open (Qt keeps the list and its items' last extents).
    if (node.role === 'combobox' && node.states.expanded === false) continue;
    if (node.role === 'menu' || (inCombo && IN_COMBO_POPUPS.has(node.role))) {
      layers.push(node);
      continue;
    }
    for (const child of node.children ?? []) stack.push({ node: child, inCombo: inCombo || node.role === 'combobox' });
  }
  return layers;
}

/** Top-level windows that are popups by role. */
const POPUP_ROLES: ReadonlySet<Role> = new Set<Role>(['menu']);
/** What a combo box or drop-down holds its list in: GTK 3 a menu, GTK 4 a popover window with a list. */
const IN_COMBO_POPUPS: ReadonlySet<Role> = new Set<Role>(['menu', 'list', 'window']);

/** The clickable node of an open popup (menu, combo box list, popover) under (x, y), if a popup is there. */
export function popupElementAt(root: UiNode, x: number, y: number, limit = 50_000): UiNode | undefined {
  for (const layer of popupLayers(root, limit)) {
    const hit = deepestAt(layer, x, y, limit);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * The element a click at (x, y) landed on, from a tree read with bounds: an open popup's element
 * first (a popup lies over the control beneath it, which the extents alone cannot tell apart),
 * else the deepest node under the point, then its nearest clickable ancestor (or itself).
 * Undefined when nothing clickable is there: such a click is not a step.
 */
export function elementAt(root: UiNode, x: number, y: number, limit = 50_000): UiNode | undefined {
  return popupElementAt(root, x, y, limit) ?? deepestAt(root, x, y, limit);
}

/** Bounds equal to within a point: the tree and the hit test read the same frame, rounded apart at most. */
function sameBounds(node: UiNode, hit: NonNullable<HitElement['bounds']>): boolean {
  const bounds = node.bounds;
  return (
    bounds !== undefined &&
    Math.abs(bounds.x - hit.x) <= 1 &&
    Math.abs(bounds.y - hit.y) <= 1 &&
    Math.abs(bounds.width - hit.width) <= 1 &&
    Math.abs(bounds.height - hit.height) <= 1
  );
}

/**
 * The tree's node for the element the platform's hit test found under a click (macOS:
 * AXUIElementCopyElementAtPosition), by role and frame, then its nearest clickable ancestor (or
 * itself). Undefined when no node or more than one fits: the caller then places the click by the
 * tree's bounds (elementAt), never by a guess between look-alikes.
 */
export function elementMatching(root: UiNode, hit: HitElement, limit = 50_000): UiNode | undefined {
  const bounds = hit.bounds;
  if (bounds === undefined) return undefined;
  const matches: UiNode[][] = [];
  const stack: { node: UiNode; path: UiNode[] }[] = [{ node: root, path: [] }];
  for (let seen = 0; stack.length > 0 && seen < limit && matches.length < 2; seen += 1) {
    const { node, path } = stack.pop() as { node: UiNode; path: UiNode[] };
    const here = [...path, node];
    if (node.role === hit.role && sameBounds(node, bounds)) matches.push(here);
    for (const child of node.children ?? []) stack.push({ node: child, path: here });
  }
  if (matches.length !== 1) return undefined;
  const chain = matches[0] as UiNode[];
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const node = chain[index] as UiNode;
    if (CLICKABLE.has(node.role)) return node;
  }
  return undefined;
}
