import type { Role, UiNode } from '../../../shared/ui-node';
import { estimateTokens } from './token-estimate';

export interface SerializeOptions {
  /** Most node lines to print. */
  maxNodes?: number;
  /** Token budget, estimated as o200k_base would count (see token-estimate.ts). */
  maxTokens?: number;
  /** Longer names and values are cut; read_element gives the full text. */
  maxTextChars?: number;
  /** How a line starts: `[k3x9a] button` or, a fifth fewer tokens, `k3x9a button`. */
  ids?: IdStyle;
}

/**
 * `bare` is what the agent's model reads: with fixed-length ids first on every line the
 * brackets carry nothing, and each pair costs a token or two (measured with o200k_base
 * by bench:context). `brackets` stays the default for the CLI and MCP output.
 */
export type IdStyle = 'brackets' | 'bare';

export const DEFAULT_SERIALIZE: Required<SerializeOptions> = { maxNodes: 500, maxTokens: 6000, maxTextChars: 120, ids: 'brackets' };

/** Roles a model acts on; their names are always printed, even toolkit class names. */
export const ACTIONABLE_ROLES: ReadonlySet<Role> = new Set<Role>([
  'button',
  'togglebutton',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'textfield',
  'textarea',
  'combobox',
  'link',
  'menuitem',
  'tab',
  'listitem',
]);

/** GTK 4 names a widget with no label after its class (`GtkBuiltinIcon`); that tells a model nothing. */
const TOOLKIT_CLASS_NAME = /^(Gtk|Adw)[A-Z][A-Za-z0-9]*$/;

/** Roles that only arrange other nodes; unnamed ones add no meaning and are not printed. */
const STRUCTURAL_ROLES = new Set<Role>(['group', 'unknown', 'scrollarea', 'separator', 'menubar', 'tablist', 'toolbar']);

/** Roles whose text is always editable when enabled, so `editable` is not printed for them. */
const EDITABLE_ROLES = new Set<Role>(['textfield', 'textarea', 'spinbutton']);

interface Line {
  id: string;
  depth: number;
  text: string;
  /** Ids of printable ancestors, outermost first. */
  ancestors: string[];
}

function quote(text: string, maxChars: number): string {
  const cut = [...text].length > maxChars ? `${[...text].slice(0, maxChars).join('')}…` : text;
  return JSON.stringify(cut);
}

function stateWords(node: UiNode): string[] {
  const { states } = node;
  const words: string[] = [];
  if (states.focused) words.push('focused');
  if (!states.enabled) words.push('disabled');
  if (states.checked !== undefined) words.push(states.checked ? 'checked' : 'unchecked');
  if (states.selected) words.push('selected');
  if (states.expanded !== undefined) words.push(states.expanded ? 'expanded' : 'collapsed');
  if (states.secret) words.push('secret');
  else if (states.editable && !EDITABLE_ROLES.has(node.role)) words.push('editable');
  return words;
}

/** One line for one node: `[id] role "name" = "value" (states)`. A secret value is never printed. */
export function formatNode(node: UiNode, maxTextChars = DEFAULT_SERIALIZE.maxTextChars, labels: readonly string[] = [], ids: IdStyle = 'brackets'): string {
  let text = `${ids === 'bare' ? node.id : `[${node.id}]`} ${node.role}`;
  const classNameOnly = !ACTIONABLE_ROLES.has(node.role) && TOOLKIT_CLASS_NAME.test(node.name);
  if (node.name !== '' && !classNameOnly) text += ` ${quote(node.name, maxTextChars)}`;
  if (!node.states.secret && node.value !== undefined && node.value !== '' && node.value !== node.name) {
    text += ` = ${typeof node.value === 'number' ? node.value : quote(node.value, maxTextChars)}`;
  }
  for (const label of labels) text += ` label ${quote(label, maxTextChars)}`;
  const words = stateWords(node);
  if (words.length > 0) text += ` (${words.join(', ')})`;
  return text;
}

function isCollapsible(node: UiNode): boolean {
  const unnamed = node.name === '' || TOOLKIT_CLASS_NAME.test(node.name);
  return STRUCTURAL_ROLES.has(node.role) && unnamed && (node.value === undefined || node.value === '');
}

/** Bounds the platform reported as empty: the node takes no room on screen (a hidden stack page, a collapsed popover). */
function hasNoArea(node: UiNode): boolean {
  return node.bounds !== undefined && (node.bounds.width <= 0 || node.bounds.height <= 0);
}

/** A label or text that only repeats its parent's name, as GTK puts inside buttons and check boxes. */
function repeatsParent(node: UiNode, parent: UiNode | undefined): boolean {
  return (
    parent !== undefined &&
    (node.role === 'label' || node.role === 'text') &&
    node.name === parent.name &&
    (node.value === undefined || node.value === '' || node.value === node.name) &&
    (node.children ?? []).length === 0
  );
}

/** A plain text leaf inside a control: printed on the control's line, as its label, not as a line of its own. */
function isFoldedLabel(node: UiNode, parent: UiNode): boolean {
  return (
    ACTIONABLE_ROLES.has(parent.role) &&
    (node.role === 'label' || node.role === 'text') &&
    node.name.trim() !== '' &&
    (node.value === undefined || node.value === '' || node.value === node.name) &&
    (node.children ?? []).length === 0 &&
    node.states.visible !== false &&
    !hasNoArea(node)
  );
}

function flatten(root: UiNode, maxTextChars: number, ids: IdStyle): Line[] {
  const lines: Line[] = [];
  const visit = (node: UiNode, depth: number, ancestors: string[], parent?: UiNode): void => {
    if (node.states.visible === false && node !== root) return;
    if (parent !== undefined && isFoldedLabel(node, parent)) return;
    const printed = node === root || !(isCollapsible(node) || hasNoArea(node) || repeatsParent(node, parent));
    const labels = (node.children ?? []).filter((child) => isFoldedLabel(child, node) && !repeatsParent(child, node)).map((child) => child.name);
    if (printed) lines.push({ id: node.id, depth, text: formatNode(node, maxTextChars, labels, ids), ancestors });
    const childAncestors = printed ? [...ancestors, node.id] : ancestors;
    for (const child of node.children ?? []) visit(child, printed ? depth + 1 : depth, childAncestors, node);
  };
  visit(root, 0, []);
  return lines;
}

/**
 * The compact text form of a tree for a model: one indented line per node. Unnamed
 * structural containers are collapsed, nodes that are not showing are dropped, and when a
 * budget runs out the output ends with `… truncated: N more under <id>` for each cut subtree.
 */
export function serializeTree(root: UiNode, options: SerializeOptions = {}): string {
  const { maxNodes, maxTokens, maxTextChars, ids } = { ...DEFAULT_SERIALIZE, ...options };
  const lines = flatten(root, maxTextChars, ids);
  const out: string[] = [];
  const printed = new Set<string>();
  let tokens = 0;
  let cut = lines.length;
  for (const [index, line] of lines.entries()) {
    const rendered = `${'  '.repeat(line.depth)}${line.text}`;
    const cost = estimateTokens(`\n${rendered}`);
    if (out.length >= maxNodes || (out.length > 0 && tokens + cost > maxTokens)) {
      cut = index;
      break;
    }
    out.push(rendered);
    printed.add(line.id);
    tokens += cost;
  }
  const remaining = new Map<string, number>();
  for (const line of lines.slice(cut)) {
    const owner = [...line.ancestors].reverse().find((id) => printed.has(id)) ?? root.id;
    remaining.set(owner, (remaining.get(owner) ?? 0) + 1);
  }
  const depthOf = new Map(lines.map((line) => [line.id, line.depth]));
  const owners = [...remaining.keys()].sort((a, b) => (depthOf.get(b) ?? 0) - (depthOf.get(a) ?? 0));
  for (const owner of owners) {
    const indent = '  '.repeat((depthOf.get(owner) ?? 0) + 1);
    out.push(`${indent}… truncated: ${remaining.get(owner)} more under ${owner}`);
  }
  return out.join('\n');
}
