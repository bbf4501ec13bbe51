import type { Role } from '../../shared/ui-node';
import { nodeId, slotKey, type RawNode } from '../ui/ids';
import { isHidden, isShownDocument } from '../ui/serialize';
import { estimateTokens } from '../ui/token-estimate';
import type { AccessibilityBackend, ChildRequest } from './types';

/**
 * A read that stops at a budget: the compact tree a model reads costs what it can hold, not
 * what the page holds. Nodes are read breadth first by importance (windows and documents,
 * then landmarks, headings and named regions, then controls, and the rows of tables and
 * lists last), a batch of requests per platform call, until `maxReads` nodes are read. A
 * node whose children were not all read keeps `childCount`, so the text form can say
 * "N more under <id>". Every node's children are read as a prefix of its real list, so its
 * id (a hash of its slot, role, name and index among same-role siblings) is the one a whole
 * read would give it, and the next call can find it again.
 */

export interface OutlineReadOptions {
  /** Most nodes to read (the subtree's own budget once `targetId` is met). */
  maxReads: number;
  /**
   * Tokens the text form prints at most: the read also stops once the lines it read would print
   * about twice that (a page of long paragraphs fills a budget in a few dozen nodes).
   */
  maxTokens?: number;
  /** Read under this node first (ui_tree rootId): found by the id a whole read gives it. */
  targetId?: string;
  signal?: AbortSignal;
}

export interface OutlineRead {
  root: RawNode;
  /** The node `targetId` named, when the read met it. */
  target?: RawNode;
  reads: number;
  /** Calls to readChildren: flat in the page's size, since the budget bounds the batches. */
  calls: number;
}

/** Expansion ranks: lower is read first. */
const RANK = { top: 0, outline: 1, control: 2, bulk: 3, rest: 4, never: 99 } as const;

const TOP_ROLES = new Set<Role>(['application', 'window', 'dialog', 'document']);
/** Containers of many similar items: a first few are read, the rest come last. */
const BULK_ROLES = new Set<Role>(['table', 'list', 'tree', 'row', 'menu', 'combobox', 'menubar']);
/** Containers that only arrange: unnamed ones are as important as their parent. */
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
  'link',
  'tab',
  'tablist',
]);

/** Tokens read per token printed before the read stops: lines are dropped (repeats, folded labels) and the selection needs a choice. */
const TOKEN_SLACK = 2;
/** A line's id, role and indent, in tokens; names and values as serialize.ts cuts them (a paragraph gets 1,000 characters). */
const LINE_TOKENS = 4;
const NAME_CHARS = 120;
const VALUE_CHARS = 1000;
/** Room below which a lesser tier waits for its own round instead of riding along. */
const LESSER_TIER_MIN = 16;
/** Ranks an off-screen node of the page moves down: below the rest of a list on screen (bulk's continuation, RANK.rest + 1). */
const OFF_SCREEN = 3;
/** Children read at once from a bulk container, and from any other, before the rest wait their turn. */
const BULK_CHUNK = 8;
const CHUNK = 64;
/** How far past its budget a read may go looking for `targetId` before the caller reads whole. */
const LOCATE_FACTOR = 3;
/** Rounds are bounded too, whatever the platform answers. */
const MAX_ROUNDS = 400;
/**
 * The focused region: siblings read on each side of the way to the focused node, on the last
 * levels of that way, and levels read under each of them (a row near the focus, its cells and
 * their buttons). The same shape as outline-select.ts keeps.
 */
export const FOCUS_NEAR = 3;
export const FOCUS_LEVELS = 3;
export const FOCUS_DEPTH = 2;
/** Share of the budget the way to the focus may take (each level is read as a prefix of its list, up to the way on). */
const FOCUS_SHARE = 0.5;
/** Reads the rest of a round leaves while the focused region is still being reached: its last levels and the rows beside it. */
const FOCUS_RESERVE = 96;
/** Children read at once under a node of the focused region: the focus's neighbours, not a whole list. */
const FOCUS_CHUNK = 2 * 3 + 1;
/** Where focus rests on a whole window or page, no control has it: there is no region to read first. */
const WHOLE_ROLES = new Set<Role>(['application', 'window', 'document']);

interface Entry {
  node: RawNode;
  slot: string;
  depth: number;
  order: number;
  rank: number;
  loaded: number;
  total: number;
  roleCounts: Map<Role, number>;
  inTarget: boolean;
  /** Inside a shown document: what is not showing there is scrolled out of view, not hidden. */
  inPage: boolean;
  /** On the way to the focused node: the indices still to follow, the next among this node's children. */
  steer?: number[] | undefined;
  /** In the focused region: levels under this node still read first. */
  near: number;
}

function ownRank(node: RawNode, parentRank: number): number {
  if (TOP_ROLES.has(node.role) || node.states.focused) return RANK.top;
  if (node.role === 'heading') return RANK.outline;
  if (BULK_ROLES.has(node.role)) return RANK.bulk;
  if (ARRANGING_ROLES.has(node.role)) return node.name.trim() === '' ? Math.min(parentRank, RANK.control) : RANK.outline;
  if (CONTROL_ROLES.has(node.role)) return RANK.control;
  return RANK.rest;
}

/**
 * A node's expansion rank. Page content scrolled out of view (inside a shown document, not
 * SHOWING) comes after what is on screen, rows of an on-screen table included, except the outline and what leads
 * to it: every heading and named region is read wherever it sits, what a person sees next.
 */
function rankOf(node: RawNode, parentRank: number, inPage: boolean): number {
  if (isHidden(node, inPage)) return RANK.never;
  const own = ownRank(node, parentRank);
  const offScreen = inPage && node.states.visible === false;
  return offScreen && own > RANK.control ? own + OFF_SCREEN : offScreen && own === RANK.control ? RANK.rest : own;
}

/**
 * Entries read in one round: the outline and the controls beside it together (each round is a
 * round trip, and the page's skeleton is a dozen levels deep), then each lesser rank on its own.
 */
function tierOf(entry: Entry): number {
  return (entry.inTarget ? -100 : 0) + Math.max(entry.rank, RANK.control);
}

/** The way to the focus, then the region around it, ride ahead of every tier: they are few, and the model acts there. */
function focusBoost(entry: Entry): number {
  return entry.steer !== undefined ? -300 : entry.near > 0 ? -200 : 0;
}

function entryOrder(a: Entry, b: Entry): number {
  const boost = (entry: Entry): number => (entry.inTarget ? -100 : 0) + focusBoost(entry);
  return a.rank + boost(a) - (b.rank + boost(b)) || a.depth - b.depth || a.order - b.order;
}

/** Reads an app's tree within `maxReads` nodes; undefined when the platform reads this app whole (or cannot read on demand). */
export async function readOutline(accessibility: AccessibilityBackend, pid: number, options: OutlineReadOptions): Promise<OutlineRead | undefined> {
  const readChildren = accessibility.readChildren?.bind(accessibility);
  if (readChildren === undefined) return undefined;
  // Where the focus is, asked in the same breath as the root (a rootId read has its own subject).
  const [first, focus] = await Promise.all([
    readChildren(pid, [{ ref: undefined, from: 0, count: 1 }], options.signal),
    options.targetId === undefined ? accessibility.focusPath?.(pid, options.signal).catch(() => undefined) : undefined,
  ]);
  const rootNode = first?.[0]?.[0];
  if (first === undefined || rootNode === undefined) return undefined;
  let calls = 1;
  let reads = 1;
  let order = 0;
  const make = (node: RawNode, slot: string, depth: number, parent: { rank: number; inPage: boolean }, inTarget: boolean): Entry => ({
    node,
    slot,
    depth,
    order: (order += 1),
    rank: rankOf(node, parent.rank, parent.inPage),
    inPage: parent.inPage || isShownDocument(node),
    loaded: 0,
    total: node.childCount ?? 0,
    roleCounts: new Map(),
    inTarget,
    near: 0,
  });
  let target: RawNode | undefined;
  let targetReads = 0;
  const rootEntry = make(rootNode, slotKey('', rootNode.role, 0), 0, { rank: RANK.top, inPage: false }, false);
  if (options.targetId !== undefined && nodeId('', rootNode.role, rootNode.name, 0) === options.targetId) {
    target = rootNode;
    rootEntry.inTarget = true;
  }
  if (focus !== undefined && focus.length > 0) rootEntry.steer = [...focus];
  let focusRoom = Math.floor(options.maxReads * FOCUS_SHARE);
  let queue = rootEntry.total > 0 && rootEntry.rank !== RANK.never ? [rootEntry] : [];
  const budget = (): number =>
    target === undefined ? (options.targetId === undefined ? options.maxReads : options.maxReads * LOCATE_FACTOR) : targetReads + options.maxReads;
  let printed = 0;
  const tokenRoom = options.maxTokens === undefined ? Number.POSITIVE_INFINITY : options.maxTokens * TOKEN_SLACK;
  for (let round = 0; round < MAX_ROUNDS && queue.length > 0 && reads < budget() && printed < tokenRoom; round += 1) {
    options.signal?.throwIfAborted();
    queue.sort(entryOrder);
    const best = tierOf(queue.find((entry) => focusBoost(entry) === 0) ?? (queue[0] as Entry));
    const batch: { entry: Entry; request: ChildRequest }[] = [];
    let room = budget() - reads;
    // The best tier first, whole; lesser tiers (down to RANK.rest) ride along in the same round trip,
    // but only on half the room left, so they never take the budget the best tier's children need.
    let tier = best;
    // While the focused region is being reached, the rest of each round leaves it room for its next levels.
    let reserve = queue.some((entry) => focusBoost(entry) < 0) ? FOCUS_RESERVE : 0;
    while (queue.length > 0 && room > 0) {
      const entry = queue[0] as Entry;
      if (focusBoost(entry) === 0 && reserve > 0) {
        room -= reserve;
        reserve = 0;
        if (room <= 0) break;
      }
      const steer = entry.steer?.[0];
      if (steer !== undefined) {
        // The way to the focus is read as a prefix of each list (ids count same-role siblings before a node), up to a few past it.
        const count = Math.min(entry.total, steer + 1 + FOCUS_NEAR) - entry.loaded;
        if (steer >= entry.loaded && steer < entry.total && count <= Math.min(room, focusRoom)) {
          queue.shift();
          focusRoom -= count;
          room -= count;
          batch.push({ entry, request: { ref: entry.node.ref, from: entry.loaded, count } });
          continue;
        }
        // Too far down a long list for the budget (or gone): the focus is found no further, and this node is read as any other.
        delete entry.steer;
        queue.sort(entryOrder);
        continue;
      }
      if (focusBoost(entry) === 0 && tierOf(entry) !== tier) {
        tier = tierOf(entry);
        room = Math.floor(room / 2);
        // Off-screen content and the rest of long lists wait for their own rounds: they are last on purpose.
        if (room < LESSER_TIER_MIN || tier > RANK.rest) break;
      }
      queue.shift();
      const chunk = entry.near > 0 && !entry.inTarget ? FOCUS_CHUNK : entry.rank >= RANK.bulk && !entry.inTarget ? BULK_CHUNK : CHUNK;
      const count = Math.min(entry.total - entry.loaded, chunk, room);
      room -= count;
      batch.push({ entry, request: { ref: entry.node.ref, from: entry.loaded, count } });
    }
    const answers = await readChildren(
      pid,
      batch.map((each) => each.request),
      options.signal,
    );
    calls += 1;
    if (answers === undefined) return undefined;
    const next: Entry[] = [];
    for (const [index, { entry, request }] of batch.entries()) {
      const kids = answers[index] ?? [];
      reads += kids.length;
      const children = (entry.node.children ??= []);
      for (const [position, kid] of kids.entries()) {
        const roleIndex = entry.roleCounts.get(kid.role) ?? 0;
        entry.roleCounts.set(kid.role, roleIndex + 1);
        children.push(kid);
        const hit = target === undefined && options.targetId !== undefined && nodeId(entry.slot, kid.role, kid.name, roleIndex) === options.targetId;
        if (hit) {
          target = kid;
          targetReads = reads;
        }
        // What is read outside the asked subtree is only the way to it: it prints nothing.
        if (options.targetId === undefined || entry.inTarget || hit) printed += lineTokens(kid);
        const child = make(kid, slotKey(entry.slot, kid.role, roleIndex), entry.depth + 1, entry, entry.inTarget || hit);
        placeInFocus(entry, child, request.from + position);
        if (child.total > 0 && (child.rank !== RANK.never || child.steer !== undefined)) next.push(child);
      }
      entry.loaded += kids.length;
      // Fewer than asked: the list shrank while it was read, so what was read is all there is.
      if (kids.length < request.count) entry.total = entry.loaded;
      // The rest waits until what was read is read through: a few whole rows say more than many empty ones.
      if (entry.loaded < entry.total) next.push({ ...entry, rank: Math.max(entry.rank, RANK.rest) + 1, steer: undefined, near: 0 });
    }
    queue.push(...next);
    // Met the target: only its subtree is read from now on.
    if (target !== undefined) queue = queue.filter((entry) => entry.inTarget);
  }
  markUnread(rootNode);
  return { root: rootNode, ...(target === undefined ? {} : { target }), reads, calls };
}

/**
 * Marks a child just read as on the way to the focus (it follows the way on), as the focused
 * node, or as near it: within FOCUS_NEAR of the way on its last FOCUS_LEVELS levels, or under
 * such a node, FOCUS_DEPTH levels down.
 */
function placeInFocus(parent: Entry, child: Entry, index: number): void {
  const steer = parent.steer;
  if (steer !== undefined && steer.length > 0) {
    const [next, ...rest] = steer;
    if (index === next) {
      if (rest.length > 0) child.steer = rest;
      else if (!WHOLE_ROLES.has(child.node.role)) child.near = FOCUS_DEPTH;
    } else if (steer.length <= FOCUS_LEVELS && Math.abs(index - (next as number)) <= FOCUS_NEAR && !WHOLE_ROLES.has(child.node.role)) child.near = FOCUS_DEPTH;
  }
  if (parent.near > 0) child.near = Math.max(child.near, parent.near - 1);
}

/**
 * About what a node's line costs in the text form: its id and role, its name as cut there, and
 * a value as long as a paragraph's gets. Unnamed nodes without a value mostly print nothing
 * (collapsed wrappers), and a folded label is counted though it is not printed: hence the slack.
 */
function lineTokens(node: RawNode): number {
  const value = node.value === undefined ? '' : String(node.value);
  if (node.name === '' && value === '') return 0;
  return LINE_TOKENS + estimateTokens(node.name.slice(0, NAME_CHARS)) + estimateTokens(value.slice(0, VALUE_CHARS));
}

/** Keeps `childCount` only where some children were not read: that is what the text form marks. */
function markUnread(root: RawNode): void {
  const stack = [root];
  for (let guard = 0; stack.length > 0 && guard < 1_000_000; guard += 1) {
    const node = stack.pop() as RawNode;
    const read = node.children?.length ?? 0;
    if ((node.childCount ?? 0) <= read) delete node.childCount;
    if (node.children !== undefined) stack.push(...node.children);
  }
}
