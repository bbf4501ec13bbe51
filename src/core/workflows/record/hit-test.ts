import type { Role, UiNode } from '../../../shared/ui-node';

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

/**
 * The element a click at (x, y) landed on, from a tree read with bounds: the deepest node
 * under the point, then its nearest clickable ancestor (or itself). Undefined when nothing
 * clickable is there: such a click is not a step.
 */
export function elementAt(root: UiNode, x: number, y: number, limit = 50_000): UiNode | undefined {
  let chain: UiNode[] = [];
  const stack: { node: UiNode; path: UiNode[] }[] = [{ node: root, path: [] }];
  let seen = 0;
  while (stack.length > 0 && seen < limit) {
    const { node, path } = stack.pop() as { node: UiNode; path: UiNode[] };
    seen += 1;
    const here = [...path, node];
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
