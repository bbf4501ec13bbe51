/**
 * The OSWorld linearized accessibility table for a UiNode tree: the context OSWorld's
 * a11y-tree agents give the model (`linearize_accessibility_tree`), rebuilt from our tree so
 * bench:context can compare token counts on exactly the same nodes.
 *
 * One header line, then one tab-separated line per kept node: tag (role), name, text
 * (value), class (platform role), description, position (top-left x&y), size (w&h).
 * Like OSWorld, only nodes whose role is on an allow-list of interactive or visible roles,
 * that are showing and that have non-empty bounds are kept.
 */
import type { Role, UiNode } from '../src/shared/ui-node';

export const OSWORLD_HEADER = 'tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)';

/** Roles OSWorld keeps: the controls a model acts on and the text it reads. */
export const OSWORLD_ROLES: ReadonlySet<Role> = new Set<Role>([
  'button',
  'togglebutton',
  'checkbox',
  'radio',
  'switch',
  'textfield',
  'textarea',
  'combobox',
  'slider',
  'spinbutton',
  'scrollbar',
  'link',
  'menu',
  'menuitem',
  'listitem',
  'tab',
  'label',
  'text',
  'heading',
  'document',
  'image',
  'cell',
  'columnheader',
  'treeitem',
  'progressbar',
]);

/** OSWorld quotes text holding line breaks so each node stays on one line. */
function cell(text: string): string {
  const flat = text.replace(/\t/g, ' ');
  return /[\n\r]/.test(flat) ? JSON.stringify(flat) : flat;
}

function keep(node: UiNode): boolean {
  const { bounds } = node;
  return OSWORLD_ROLES.has(node.role) && bounds !== undefined && bounds.width > 0 && bounds.height > 0;
}

export function osworldRow(node: UiNode): string {
  const bounds = node.bounds as NonNullable<UiNode['bounds']>;
  const text = node.states.secret || node.value === undefined ? '' : String(node.value);
  return [
    node.role,
    cell(node.name),
    cell(text),
    node.platformRole,
    cell(node.description ?? ''),
    `(${Math.round(bounds.x)}, ${Math.round(bounds.y)})`,
    `(${Math.round(bounds.width)}, ${Math.round(bounds.height)})`,
  ].join('\t');
}

/** The whole table. Nodes that are not showing are dropped with their subtrees. */
export function osworldTable(root: UiNode): string {
  const rows = [OSWORLD_HEADER];
  const visit = (node: UiNode): void => {
    if (node.states.visible === false) return;
    if (keep(node)) rows.push(osworldRow(node));
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  return rows.join('\n');
}
