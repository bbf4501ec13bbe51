import type { UiNode } from '../../../shared/ui-node';
import { indexTree, walk } from '../../ui/tree-index';
import { popupElementAt } from './hit-test';

/** Roles of the items a combo box's open list shows. */
const ITEM_ROLES = new Set<UiNode['role']>(['menuitem', 'listitem']);
/**
 * How far above the item its combo box may be: the box → menu or list → item, plus wrappers;
 * GTK 4's drop-down holds its list five levels down (popover, its content, a box, a scrolled window, the list).
 */
const MAX_DEPTH = 7;

/**
 * The combo box an item belongs to, when a click landed on one of the items of its open list:
 * the user chose a value, and the step is "set the box to it" rather than two clicks that only
 * replay while the list happens to open the same way.
 */
export function comboOf(tree: UiNode, item: UiNode): UiNode | undefined {
  if (!ITEM_ROLES.has(item.role)) return undefined;
  const index = indexTree(tree);
  let parentId = index.get(item.id)?.parentId;
  for (let depth = 0; depth < MAX_DEPTH && parentId !== undefined; depth += 1) {
    const parent = index.get(parentId);
    if (parent === undefined) return undefined;
    if (parent.node.role === 'combobox') return parent.node;
    parentId = parent.parentId;
  }
  return undefined;
}

/**
 * The item of an open combo box's list under (x, y). The list pops out of the box's own bounds
 * and over the widgets below it, so a click there is looked for in the lists first, and only
 * while the box was the last thing clicked (when its list is open): in the box's own subtree,
 * else in the app's open popups, topmost first (toolkits that show the list as a window of its
 * own, such as Qt, or GTK 4's popover).
 */
export function itemAt(tree: UiNode, combo: UiNode, x: number, y: number): UiNode | undefined {
  const under = (node: UiNode): boolean => {
    const bounds = node.bounds;
    return (
      node.states.visible !== false &&
      bounds !== undefined &&
      bounds.width > 0 &&
      bounds.height > 0 &&
      x >= bounds.x &&
      y >= bounds.y &&
      x < bounds.x + bounds.width &&
      y < bounds.y + bounds.height
    );
  };
  for (const node of walk(combo)) if (ITEM_ROLES.has(node.role) && under(node)) return node;
  const hit = popupElementAt(tree, x, y);
  return hit !== undefined && ITEM_ROLES.has(hit.role) ? hit : undefined;
}
