import type { Role, UiNode } from '../../shared/ui-node';

/**
 * Which lines of a tree's text a budget keeps when not all fit: the page's outline first
 * (windows, documents, headings, named regions and forms, the focused node, each with the
 * lines above it), after the focused region (the lines above the focused node, and the few
 * beside it and under those on its last levels: the form or the rows where the model acts), then the rest breadth first by importance, a few rows of every table
 * before more rows of any. Each kept line that has lines left out under it gets one
 * `… truncated: N more under <id>` line, and those count against the budget too.
 */

/** One line of the text form, as serialize.ts flattens the tree. */
export interface OutlineLine {
  id: string;
  depth: number;
  /** Ids of printed ancestors, outermost first. */
  ancestors: string[];
  /** Lower is kept first (see lineRank). */
  rank: number;
  /** Children the platform did not read (a budgeted read): they are counted in the line's note. */
  unread: number;
  /** The node has the focus: its region is kept first (see focusRegion). */
  focused?: boolean;
}

/** The focused region as a budgeted read reaches it (platform/outline-read.ts): siblings on each side, levels up, levels down. */
const FOCUS_NEAR = 3;
const FOCUS_LEVELS = 3;
const FOCUS_DEPTH = 2;
/** Lines the focused region keeps at most, whatever the focus holds: the outline still comes second, not never. */
const FOCUS_LINES = 80;

const SKELETON = 1;
const TOP_ROLES = new Set<Role>(['application', 'window', 'dialog', 'document']);
const ARRANGING_ROLES = new Set<Role>(['group', 'unknown', 'scrollarea', 'tabpanel', 'toolbar', 'statusbar']);
const CONTROL_ROLES = new Set<Role>([
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
  'tab',
  'tablist',
  'table',
  'list',
  'tree',
  'menubar',
  'menu',
]);
const ITEM_ROLES = new Set<Role>(['row', 'cell', 'listitem', 'treeitem', 'menuitem', 'columnheader']);
/** Items of a container kept per round: eight rows of every table before the ninth of any. */
const ITEMS_PER_ROUND = 8;

/** A node's own rank: 0 top-level and focused, 1 outline, 2 controls and containers, 3 the rest. */
function ownRank(node: UiNode): number {
  if (TOP_ROLES.has(node.role) || node.states.focused) return 0;
  if (node.role === 'heading' || (ARRANGING_ROLES.has(node.role) && node.name.trim() !== '')) return SKELETON;
  if (CONTROL_ROLES.has(node.role)) return 2;
  return 3;
}

/**
 * A line's rank: the outline keeps its own; anything else is no more important than the
 * line it sits under, and the items of a container rank by their place in it.
 */
export function lineRank(node: UiNode, parentRank: number, itemIndex: number): number {
  const own = ownRank(node);
  if (own <= SKELETON) return own;
  const inherited = Math.max(own, parentRank > SKELETON ? parentRank : 0);
  return ITEM_ROLES.has(node.role) ? inherited + Math.floor(itemIndex / ITEMS_PER_ROUND) : inherited;
}

export interface Selection {
  keep: boolean[];
  /** For each kept line, lines and unread children left out under it. */
  omitted: number[];
}

/** A binary heap of line indices, least first: the frontier of a big tree is thousands of lines. */
class LineHeap {
  private readonly items: number[] = [];
  constructor(private readonly less: (a: number, b: number) => number) {}
  get size(): number {
    return this.items.length;
  }
  push(item: number): void {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0;) {
      const up = (at - 1) >> 1;
      if (this.less(items[at] as number, items[up] as number) >= 0) break;
      [items[at], items[up]] = [items[up] as number, items[at] as number];
      at = up;
    }
  }
  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let at = 0; ;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let least = at;
      if (left < items.length && this.less(items[left] as number, items[least] as number) < 0) least = left;
      if (right < items.length && this.less(items[right] as number, items[least] as number) < 0) least = right;
      if (least === at) break;
      [items[at], items[least]] = [items[least] as number, items[at] as number];
      at = least;
    }
    return top;
  }
}

/**
 * Picks lines within maxTokens and maxNodes: costOf(i) is line i's tokens (asked only of lines considered), noteCost(i) the most
 * line i's note can cost (it is priced as soon as the line has something left out under it).
 */
export function selectLines(
  lines: readonly OutlineLine[],
  costOf: (index: number) => number,
  noteCost: (index: number) => number,
  limits: { maxTokens: number; maxNodes: number },
): Selection {
  const indexOf = new Map(lines.map((line, index) => [line.id, index]));
  const parentOf = lines.map((line) => indexOf.get(line.ancestors[line.ancestors.length - 1] ?? '') ?? -1);
  const kids = lines.map((): number[] => []);
  for (const [index, parent] of parentOf.entries()) if (parent >= 0) kids[parent]?.push(index);
  const keep = lines.map(() => false);
  const pending = lines.map((line, index) => (kids[index]?.length ?? 0) + (line.unread > 0 ? 1 : 0));
  const order: number[] = [];
  let tokens = 0;
  let reserve = 0;
  let nodes = 0;
  const printed = (index: number): boolean => (lines[index]?.depth ?? 0) >= 0;
  const note = (index: number): number => noteCost(index);
  /** The tokens and lines keeping `chain` (outermost first, none kept yet) adds, notes included. */
  const price = (chain: readonly number[]): { tokens: number; reserve: number; nodes: number } => {
    let addTokens = 0;
    let addReserve = 0;
    let addNodes = 0;
    for (const [position, index] of chain.entries()) {
      addTokens += costOf(index);
      if (printed(index)) addNodes += 1;
      const parent = parentOf[index] ?? -1;
      // The parent's note goes once its last left-out child is kept; a chain's own parents are new.
      if (position === 0 && parent >= 0 && pending[parent] === 1 && lines[parent]?.unread === 0) addReserve -= note(parent);
      const openChildren = (pending[index] ?? 0) - (position < chain.length - 1 ? 1 : 0);
      if (openChildren > 0) addReserve += note(index);
    }
    return { tokens: addTokens, reserve: addReserve, nodes: addNodes };
  };
  const take = (chain: readonly number[]): boolean => {
    const added = price(chain);
    if (order.length > 0 && (tokens + added.tokens + reserve + added.reserve > limits.maxTokens || nodes + added.nodes > limits.maxNodes)) return false;
    for (const index of chain) {
      keep[index] = true;
      order.push(index);
      const parent = parentOf[index] ?? -1;
      if (parent >= 0) pending[parent] = (pending[parent] ?? 1) - 1;
    }
    tokens += added.tokens;
    reserve += added.reserve;
    nodes += added.nodes;
    return true;
  };
  const chainTo = (index: number): number[] => {
    const chain: number[] = [];
    for (let at = index; at >= 0 && !keep[at]; at = parentOf[at] ?? -1) chain.unshift(at);
    return chain;
  };
  const byRank = (a: number, b: number): number => (lines[a]?.rank ?? 0) - (lines[b]?.rank ?? 0) || (lines[a]?.depth ?? 0) - (lines[b]?.depth ?? 0) || a - b;
  if (lines.length > 0) take([0]);
  // The focused region before the outline: it is a few dozen lines, and the model acts there.
  for (const index of focusRegion(lines, parentOf, kids)) if (!keep[index]) take(chainTo(index));
  // The outline first: each of its lines with the lines above it, as long as they fit.
  const outline = lines.map((_line, index) => index).filter((index) => (lines[index]?.rank ?? 99) <= SKELETON);
  for (const index of outline.sort(byRank)) if (!keep[index]) take(chainTo(index));
  // Then the rest, breadth first by rank: a line is a candidate once its parent is kept.
  const queue = new LineHeap(byRank);
  for (const [index] of lines.entries()) if (!keep[index] && keep[parentOf[index] ?? -1] === true) queue.push(index);
  for (let guard = 0; queue.size > 0 && guard <= lines.length; guard += 1) {
    const index = queue.pop() as number;
    if (keep[index]) continue;
    if (!take([index])) break;
    for (const child of kids[index] ?? []) if (!keep[child]) queue.push(child);
  }
  return { keep, omitted: omittedCounts(lines, keep, parentOf) };
}

/**
 * The focused line, then on each of its last FOCUS_LEVELS levels the lines within FOCUS_NEAR
 * of the way to it, each followed by the lines FOCUS_DEPTH levels under it (breadth first).
 */
function focusRegion(lines: readonly OutlineLine[], parentOf: readonly number[], kids: readonly number[][]): number[] {
  const focused = lines.findIndex((line) => line.focused === true);
  if (focused <= 0) return [];
  const region = [focused];
  // The first few children of each, as the read reads them: a focused list is its first items, not all of them.
  const under = (top: number): void => {
    let level = [top];
    for (let depth = 0; depth < FOCUS_DEPTH; depth += 1) {
      level = level.flatMap((index) => (kids[index] ?? []).slice(0, 2 * FOCUS_NEAR + 1));
      region.push(...level);
    }
  };
  under(focused);
  for (let on = focused, up = 0; up < FOCUS_LEVELS; up += 1) {
    const parent = parentOf[on] ?? -1;
    if (parent < 0) break;
    const siblings = kids[parent] ?? [];
    const at = siblings.indexOf(on);
    for (const sibling of siblings.slice(Math.max(0, at - FOCUS_NEAR), at + FOCUS_NEAR + 1))
      if (sibling !== on) {
        region.push(sibling);
        under(sibling);
      }
    on = parent;
  }
  return region.slice(0, FOCUS_LINES);
}

/** For each kept line, the lines under it whose nearest kept ancestor it is, plus its unread children. */
function omittedCounts(lines: readonly OutlineLine[], keep: readonly boolean[], parentOf: readonly number[]): number[] {
  const omitted = lines.map((line, index) => (keep[index] === true ? line.unread : 0));
  const owner = lines.map(() => -1);
  for (const [index] of lines.entries()) {
    const parent = parentOf[index] ?? -1;
    if (keep[index] === true) owner[index] = index;
    else {
      owner[index] = parent >= 0 ? (owner[parent] ?? -1) : -1;
      const at = owner[index] ?? -1;
      if (at >= 0) omitted[at] = (omitted[at] ?? 0) + 1 + (lines[index]?.unread ?? 0);
    }
  }
  return omitted;
}
