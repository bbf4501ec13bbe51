import type { Role, UiNode } from '../../shared/ui-node';
import { LABELLED_ROLES } from './infer-names';
import { lineRank, selectLines } from './outline-select';
import { estimateTokens } from './token-estimate';

export interface SerializeOptions {
  /** Most node lines to print. */
  maxNodes?: number;
  /** Token budget, estimated as o200k_base would count (see token-estimate.ts). */
  maxTokens?: number;
  /** Longer names and values are cut; ui_read gives the full text. */
  maxTextChars?: number;
  /** `full`: `[kqxza] checkbox "Save" (unchecked)`; `compact`, for the agent's model: `kqxza checkbox Save`. */
  style?: LineStyle;
  /** Print each node's screen rectangle where the tree has it: `@12,40 120x24`. */
  bounds?: boolean;
}

/**
 * `compact` is what the agent's model reads, about a third fewer tokens (bench:context,
 * o200k_base): with fixed-length ids first on every line the brackets carry nothing; a
 * name is quoted only when it could be misread (it holds a quote, ` = `, a parenthesis or
 * a line break); and a check box, radio, switch or toggle button with no `checked` is
 * unchecked, so that is not spelled out. `full` stays the default for the CLI and MCP output.
 */
export type LineStyle = 'full' | 'compact';

export const DEFAULT_SERIALIZE: Required<SerializeOptions> = { maxNodes: 500, maxTokens: 6000, maxTextChars: 120, style: 'full', bounds: false };

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

/** Roles whose value is document or page content (Writer paragraphs, web page text, spreadsheet cells). */
const CONTENT_ROLES = new Set<Role>(['text', 'heading', 'cell', 'listitem']);
/** How much of one paragraph's text a line holds; ui_read gives the rest. */
const CONTENT_TEXT_CHARS = 1000;

/** Room for the note on an app's root line. */
const APP_NOTE_CHARS = 600;

/** A spreadsheet cell named only by its address ("B7"). */
const CELL_ADDRESS = /^\$?[A-Z]{1,3}\$?[0-9]{1,7}$/;

/** An empty spreadsheet cell: a sheet shows hundreds, and each says only its address (find --name B7 still finds it). */
function isEmptyCell(node: UiNode): boolean {
  return (
    node.role === 'cell' &&
    (node.value === undefined || node.value === '') &&
    (node.children ?? []).length === 0 &&
    !node.states.focused &&
    node.states.selected !== true &&
    CELL_ADDRESS.test(node.name)
  );
}

/** Roles whose text is always editable when enabled, so `editable` is not printed for them. */
const EDITABLE_ROLES = new Set<Role>(['textfield', 'textarea', 'spinbutton']);

/** Roles whose focus says only that their window or page is active. */
const WHOLE_ROLES = new Set<Role>(['application', 'window', 'document']);

interface Line {
  id: string;
  depth: number;
  text: string;
  /** Ids of printable ancestors, outermost first. */
  ancestors: string[];
  /** Which lines a budget keeps first (outline-select.ts). */
  rank: number;
  /** Children a budgeted read left unread here, or under unprinted nodes below (`childCount`). */
  unread: number;
  focused?: boolean;
}

/** Children of a node that the read did not reach: a budgeted read keeps `childCount` where it stopped. */
function unreadChildren(node: UiNode): number {
  return Math.max(0, (node.childCount ?? 0) - (node.children?.length ?? 0));
}

function quote(text: string, maxChars: number): string {
  const cut = [...text].length > maxChars ? `${[...text].slice(0, maxChars).join('')}…` : text;
  return JSON.stringify(cut);
}

/** A name that reads unambiguously without quotes between the role and the rest of the line. */
const PLAIN_NAME = /^[^\s"'=()[\]@…][^\n"=()]*$/u;

function nameText(name: string, maxChars: number, style: LineStyle): string {
  const plain = style === 'compact' && PLAIN_NAME.test(name) && name.trimEnd() === name && !name.includes(' label ') && !name.includes(' placeholder ');
  return plain && [...name].length <= maxChars ? name : quote(name, maxChars);
}

/** Roles that are checkable by nature: in compact lines no `checked` means unchecked. */
const CHECKABLE_ROLES = new Set<Role>(['checkbox', 'radio', 'switch', 'togglebutton']);

function stateWords(node: UiNode, style: LineStyle): string[] {
  const { states } = node;
  const words: string[] = [];
  if (states.focused) words.push('focused');
  if (!states.enabled) words.push('disabled');
  if (states.checked === true) words.push('checked');
  else if (states.checked === false && !(style === 'compact' && CHECKABLE_ROLES.has(node.role))) words.push('unchecked');
  if (states.selected) words.push('selected');
  if (states.expanded !== undefined) words.push(states.expanded ? 'expanded' : 'collapsed');
  if (states.secret) words.push('secret');
  else if (states.editable && !EDITABLE_ROLES.has(node.role)) words.push('editable');
  // A name read off the layout is a guess; the model should be able to tell it from a fact.
  if (node.nameFrom === 'geometry') words.push('name guessed');
  // Read off the pixels: the text may be misread, and only a click at its place acts on it.
  if (node.source === 'ocr') words.push('read from screen');
  return words;
}

/** One line for one node: `[id] role "name" = "value" (states)`. A secret value is never printed. */
export function formatNode(
  node: UiNode,
  maxTextChars = DEFAULT_SERIALIZE.maxTextChars,
  labels: readonly string[] = [],
  style: LineStyle = 'full',
  bounds = false,
): string {
  let text = `${style === 'compact' ? node.id : `[${node.id}]`} ${node.role}`;
  const classNameOnly = !ACTIONABLE_ROLES.has(node.role) && TOOLKIT_CLASS_NAME.test(node.name);
  if (node.name !== '' && !classNameOnly) text += ` ${nameText(node.name, maxTextChars, style)}`;
  if (!node.states.secret && node.value !== undefined && node.value !== '' && node.value !== node.name) {
    // A paragraph's or a cell's text is what the model came to read: it gets room, and the token budget bounds the whole.
    const room = CONTENT_ROLES.has(node.role) ? Math.max(maxTextChars, CONTENT_TEXT_CHARS) : maxTextChars;
    text += ` = ${typeof node.value === 'number' ? node.value : quote(node.value, room)}`;
  }
  if (node.placeholder !== undefined && (node.value === undefined || node.value === '')) text += ` placeholder ${quote(node.placeholder, maxTextChars)}`;
  for (const label of labels) text += ` label ${quote(label, maxTextChars)}`;
  // An app's root has no description of its own: the backend puts there what the reader must know (how to get a fuller tree).
  if (node.role === 'application' && node.description !== undefined && node.description !== '') text += ` note ${quote(node.description, APP_NOTE_CHARS)}`;
  const words = stateWords(node, style);
  if (words.length > 0) text += ` (${words.join(', ')})`;
  if (bounds && node.bounds !== undefined) text += ` @${node.bounds.x},${node.bounds.y} ${node.bounds.width}x${node.bounds.height}`;
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

/**
 * Names that fields in this subtree (to two levels down) carry, whether the toolkit took them
 * from their label or Deskpilot did (`nameFrom`): that label need not be printed again.
 */
function labelNamesBelow(node: UiNode): Set<string> {
  const names = new Set<string>();
  for (const child of node.children ?? []) {
    for (const each of [child, ...(child.children ?? [])]) {
      if (each.name.trim() !== '' && (each.nameFrom !== undefined || LABELLED_ROLES.has(each.role))) names.add(each.name.trim());
    }
  }
  return names;
}

/** A plain label leaf whose text a nearby field already carries as its name. */
function namesAField(node: UiNode, taken: ReadonlySet<string>): boolean {
  return (node.role === 'label' || node.role === 'text') && (node.children ?? []).length === 0 && taken.has(node.name.trim());
}

/** Containers of rows a person scrolls through: their rows that are not showing are counted, not dropped silently. */
const SCROLLED_ROLES = new Set<Role>(['list', 'tree', 'table']);

/** Whether a node gets a line of its own: unnamed wrappers, empty areas and repeated labels do not. */
export function printsOwnLine(node: UiNode, parent: UiNode | undefined): boolean {
  return parent === undefined || !(isCollapsible(node) || hasNoArea(node) || repeatsParent(node, parent) || isEmptyCell(node));
}

/**
 * In compact lines an app's root is not printed: the context names the app and its pid
 * already, and the app's own line only costs tokens. It stays in the bookkeeping (at depth
 * -1) so a cut at the top level is still noted under its id.
 */
function rootDepth(root: UiNode, style: LineStyle): number {
  // A root with a note keeps its line: the note is for the model.
  return style === 'compact' && root.role === 'application' && (root.description ?? '') === '' ? -1 : 0;
}

/** A document (a web page, a text document) the platform says is showing: a hidden one is a background tab. */
export function isShownDocument(node: Pick<UiNode, 'role' | 'states'>): boolean {
  return node.role === 'document' && node.states.visible !== false;
}

/**
 * Whether a node is left out as not showing. Inside a shown document, a node that is not
 * showing is page content scrolled out of view (Chromium and Firefox clear SHOWING there),
 * still part of what the page says, and kept; a document that is not showing (a background
 * tab) and anything outside documents that is not showing (a hidden stack page) are left out.
 */
export function isHidden(node: Pick<UiNode, 'role' | 'states'>, inShownDocument: boolean): boolean {
  return node.states.visible === false && (!inShownDocument || node.role === 'document');
}

function flatten(root: UiNode, maxTextChars: number, style: LineStyle, bounds: boolean): Line[] {
  const lines: Line[] = [];
  /** Item lines printed so far under each line, so the rows of a table rank by their place. */
  const items = new Map<Line, number>();
  const visit = (
    node: UiNode,
    depth: number,
    ancestors: string[],
    owner: Line | undefined,
    parent?: UiNode,
    taken: ReadonlySet<string> = new Set(),
    inPage = false,
  ): void => {
    // Hidden tabs and stack pages, and nodes scrolled out of a list, are left out (lists count theirs below);
    // a shown page's content scrolled out of view is still the page's (see isHidden).
    if (node !== root && isHidden(node, inPage)) return;
    const content = inPage || isShownDocument(node);
    if (parent !== undefined && isFoldedLabel(node, parent)) return;
    if (namesAField(node, taken)) return;
    const printed = node === root || printsOwnLine(node, parent);
    const labels = (node.children ?? []).filter((child) => isFoldedLabel(child, node) && !repeatsParent(child, node)).map((child) => child.name);
    let here = owner;
    if (printed) {
      const place = owner === undefined ? 0 : (items.get(owner) ?? 0);
      if (owner !== undefined) items.set(owner, place + 1);
      here = {
        id: node.id,
        depth,
        text: formatNode(node, maxTextChars, labels, style, bounds),
        ancestors,
        rank: lineRank(node, owner?.rank ?? 0, place),
        unread: 0,
        // Focus resting on a whole window or page marks no region (outline-select.ts).
        ...(node.states.focused && !WHOLE_ROLES.has(node.role) ? { focused: true } : {}),
      };
      lines.push(here);
    }
    // What was not read under an unprinted wrapper is still counted, on the line that stands for it.
    if (here !== undefined) here.unread += unreadChildren(node);
    const childAncestors = printed ? [...ancestors, node.id] : ancestors;
    // Labels are folded only near their field: under its parent or grandparent, as forms lay them out.
    const below = labelNamesBelow(node);
    for (const child of node.children ?? []) visit(child, printed ? depth + 1 : depth, childAncestors, here, node, below, content);
    const hidden = SCROLLED_ROLES.has(node.role) ? (node.children ?? []).filter((child) => isHidden(child, content)).length : 0;
    if (hidden > 0) {
      const indent = printed ? depth + 1 : depth;
      lines.push({
        id: `${node.id}…`,
        depth: indent,
        text: `… ${hidden} more item${hidden === 1 ? '' : 's'} not showing; scroll to see them`,
        ancestors: childAncestors,
        rank: Math.max(3, here?.rank ?? 3),
        unread: 0,
      });
    }
  };
  visit(root, rootDepth(root, style), [], undefined);
  return lines;
}

/**
 * The compact text form of a tree for a model: one indented line per node. Unnamed
 * structural containers are collapsed and nodes that are not showing are dropped. When the
 * budget cannot hold it all, the outline is kept first (windows, documents, headings, named
 * regions and forms, the focused node), then the rest breadth first by importance
 * (outline-select.ts), and every kept line with something left out under it is followed by
 * `… truncated: N more under <id>`, N counting left-out lines and the children a budgeted
 * read did not reach (`childCount`). Those lines count against maxTokens too; only the root's
 * line is printed whatever the token budget.
 */
export function serializeTree(root: UiNode, options: SerializeOptions = {}): string {
  const { maxNodes, maxTokens, maxTextChars, style, bounds } = { ...DEFAULT_SERIALIZE, ...options };
  const lines = flatten(root, maxTextChars, style, bounds);
  const rendered = lines.map((line) => (line.depth < 0 ? undefined : `${'  '.repeat(line.depth)}${line.text}`));
  // Each line is priced with the newline before it, so the costs add up to the joined text's.
  const costOf = (text: string): number => estimateTokens(`\n${text}`);
  // Priced on demand: a tree of 20,000 lines has only the few hundred a budget holds priced.
  const costs = new Map<number, number>();
  const lineCost = (index: number): number => {
    let cost = costs.get(index);
    if (cost === undefined) {
      const text = rendered[index];
      cost = text === undefined ? 0 : costOf(text);
      costs.set(index, cost);
    }
    return cost;
  };
  const printed = rendered.filter((text): text is string => text !== undefined);
  let whole = printed.length <= maxNodes;
  for (let index = 0, tokens = 0; whole && index < rendered.length; index += 1) {
    tokens += lineCost(index);
    whole = tokens <= maxTokens;
  }
  if (whole && !lines.some((line) => line.unread > 0)) return printed.join('\n');
  const noteText = (index: number, count: number): string =>
    `${'  '.repeat(Math.max(0, (lines[index]?.depth ?? 0) + 1))}… truncated: ${count} more under ${lines[index]?.id ?? root.id}`;
  // A note is priced at its longest count, so the notes written at the end always fit.
  const { keep, omitted } = selectLines(lines, lineCost, (index) => costOf(noteText(index, 9_999_999)), { maxTokens, maxNodes });
  const out: string[] = [];
  // Kept lines whose subtree is still being written; each one's note comes after its last kept line, deepest first.
  const open: number[] = [];
  const close = (next?: Line): void => {
    for (let top = open[open.length - 1]; top !== undefined; top = open[open.length - 1]) {
      if (next !== undefined && next.ancestors.includes(lines[top]?.id ?? '')) return;
      open.pop();
      if ((omitted[top] ?? 0) > 0) out.push(noteText(top, omitted[top] ?? 0));
    }
  };
  for (const [index, line] of lines.entries()) {
    if (keep[index] !== true) continue;
    close(line);
    const text = rendered[index];
    if (text !== undefined) out.push(text);
    open.push(index);
  }
  close();
  return out.join('\n');
}
