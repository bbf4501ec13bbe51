import { EVENT_MEMBER, ROOT_PATH } from '../../../../native/linux/atspi';
import type { RawNode } from '../../ui/ids';
import type { AtspiRef, TreeEvent } from './client';
import { mapLimit } from './pool';
import { locateNodes } from './mirror-locate';
import { placedElsewhere, rowChildren, type CacheRow, type CacheRows, type ValueRead } from './tree-fetch';

type Node = RawNode<AtspiRef>;

/** How the mirror reads the app: the same fetch code a full read uses, on less of the app. */
export interface MirrorReader {
  /** One node's own fields; its `children` are ignored. */
  node(path: string, window: string | undefined): Promise<Node>;
  /** A node and everything under it, at most `maxDepth` levels down; from the cache's rows where it lists them, as a full read. */
  subtree(path: string, window: string | undefined, maxDepth: number, rows?: CacheRows): Promise<Node>;
  /** The object paths of a node's children, in order. */
  children(path: string): Promise<string[]>;
  /**
   * The object path of a node's parent; undefined for a node with none (detached). Lets a
   * patch place a node an event named but the tree does not hold (see `locate`); without it,
   * such a node costs a full read.
   */
  parent?: ((path: string) => Promise<string | undefined>) | undefined;
  /** Whether the node is a text or numeric widget, whose value the fetch reads. */
  hasValue(node: Node): boolean;
  /** That value, read as the fetch reads it. */
  value(node: Node): Promise<ValueRead>;
  /** The app's cache in short rows (Cache.GetItems, one call); undefined where there is none. */
  rows(): Promise<CacheRows | undefined>;
  /** A node's states alone (one call), as the fetch decodes them. */
  states(node: Node): Promise<Node['states']>;
  /**
   * Whether the app announces every state change of the nodes its cache leaves out (Chromium:
   * its page and UI nodes are walked, and each change sends a state-changed event, which
   * test/linux/chromium-mirror-states.test.ts checks), so those nodes' states need no re-read.
   * 'outside-ranges': all but the cells of a table read by its visible range (LibreOffice
   * announces its menu items' changes, but a sheet makes a new object for the cursor's cell and
   * announces focus there, not on the one the tree holds, which says so only when asked).
   */
  walkedStatesAnnounced?: boolean | 'outside-ranges';
  /**
   * Names fields after the label nearest them, as a full read does, over the tree as it is
   * now. `rawName` is a node's own name before any label named it.
   */
  relayout(root: Node, rawName: (node: Node) => string): Promise<Relayout>;
}

/** Fields a layout may name (no name of their own), and the names the layout gives them now. */
export interface Relayout {
  candidates: string[];
  names: Map<string, string>;
}

export interface MirrorLimits {
  maxNodes: number;
  maxDepth: number;
  /** More events than this between two reads and re-reading the whole app is cheaper. */
  maxPending: number;
}

/** Why the mirror stopped trusting itself; each one costs a full read, and each is counted. */
export type FallbackReason =
  'settling' | 'unknown-node' | 'overflow' | 'scrolled' | 'visibility' | 'failed-call' | 'generation' | 'derived-name' | 'root-changed' | 'too-large';

export class MirrorUntrusted extends Error {
  constructor(
    readonly reason: FallbackReason,
    detail: string,
  ) {
    super(`tree mirror untrusted (${reason}): ${detail}`);
    this.name = 'MirrorUntrusted';
  }
}

interface Entry {
  node: Node;
  parent: string | undefined;
  depth: number;
}

/** Events that change a node's own fields; anything else (bounds, caret, selection) is not in the tree. */
const SELF_EVENTS = new Set<string>([EVENT_MEMBER.stateChanged, EVENT_MEMBER.textChanged, EVENT_MEMBER.focus]);
const SELF_PROPERTIES = new Set(['accessible-name', 'accessible-description', 'accessible-value', 'accessible-role']);
/** Reads in flight at once, as in the fetch. */
const CONCURRENCY = 48;
/** Remembered removals, so the events a dying node still sends are not taken for a missed one. */
const TOMBSTONE_LIMIT = 10_000;

/**
 * One app's tree, kept current from its AT-SPI events. Events only mark what changed
 * (a node's own fields, or a node's child list); `flush` then re-reads just those parts with
 * the fetch code a full read uses, so a patched node is built exactly as a fetched one.
 *
 * Toolkits leave changes unannounced (GTK3 a hidden entry's text or a button's sensitivity,
 * GTK 4 label text, slider values and lazily filled lists), so events alone are not enough:
 * each flush also compares the app's cache (one GetItems) with the one it last saw, marks
 * every row that differs, and reads every text and numeric value again, the calls a full
 * read makes for them. Whenever the marks cannot say for sure what changed, `flush` throws
 * MirrorUntrusted and the owner reads the whole app again.
 */
export class AppMirror {
  private readonly entries = new Map<string, Entry>();
  private root: Node | undefined;
  private dirtySelf = new Set<string>();
  private dirtyChildren = new Set<string>();
  /** Paths events named: each must be in the tree (or known to have left it) once the marks are read. */
  private named = new Set<string>();
  /**
   * Nodes whose SHOWING or VISIBLE changed: once the structure is patched each must be gone (a
   * node hidden and then removed is just its removal) or newly read with its subtree, else the
   * change may have reached descendants that said nothing, and only a full read finds them.
   */
  private hidden = new Set<string>();
  /** Known nodes a call on failed (a dying node): they too must be gone once the structure is patched. */
  private failed = new Set<string>();
  private pending = 0;
  /** Nodes `locate` sent back for a parent's list to be read again, in this flush: a second miss is not a third try. */
  private located = new Set<string>();
  private untrusted: MirrorUntrusted | undefined;
  private readonly tombstones = new Set<string>();
  /** The copy last handed out, dropped whenever the tree changes. */
  private served: Node | undefined;
  /** The last flush changed the tree: the next one guesses names from the layout again (renameFromLayout). */
  private relayoutAgain = false;
  /** Set when focus moved: the node that had it may lose it without an event of its own. */
  private focusMoved = false;
  private previousLoadSize = -1;
  /** The cache as last compared; undefined for toolkits without one. */
  private rows: CacheRows | undefined;
  private childrenByRows: { rows: CacheRows; map: Map<string, string[]> } | undefined;
  /** Changes only the cache comparison or a value read found: no event told of them. */
  silentChanges = 0;
  /**
   * Whether the last two full reads found the same number of nodes. GTK 4 creates a
   * widget's accessible object only when a client first asks for it, and announces none of
   * those, so its first reads keep finding more; until they agree, only full reads are served.
   */
  settled = false;

  /** Values and states the last flush read again, for checkReads. */
  private valueChecks = Number.POSITIVE_INFINITY;
  private stateChecks = 0;

  /**
   * Nodes the last flush read again whatever the events said (every text and number, and where
   * the cache leaves nodes out, every walked node's states): what a patched read costs in calls.
   * A Chromium page costs about a call a node, as much as a whole read; the search that would
   * use the mirror asks this first.
   */
  get checkReads(): number {
    return this.valueChecks + this.stateChecks;
  }

  constructor(private readonly limits: MirrorLimits) {}

  get loaded(): boolean {
    return this.root !== undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Replaces the mirror with a full read. Marks taken while that read ran stay, to be re-read. */
  load(tree: Node, rows?: CacheRows): void {
    this.rows = rows;
    this.entries.clear();
    this.tombstones.clear();
    this.untrusted = undefined;
    this.root = tree;
    this.served = undefined;
    this.index(tree, undefined, 0);
    this.settled = this.entries.size === this.previousLoadSize;
    this.previousLoadSize = this.entries.size;
    if (this.entries.size >= this.limits.maxNodes) this.distrust('too-large', `${this.entries.size} nodes reach the read's cap`);
  }

  /** Forgets the tree and every mark: the next read is a full one. */
  reset(): void {
    this.root = undefined;
    this.rows = undefined;
    this.served = undefined;
    this.entries.clear();
    this.tombstones.clear();
    this.clearMarks();
    this.untrusted = undefined;
  }

  /** Marks what an event changed. Cheap: no calls, so a flood costs only the counting. */
  apply(event: TreeEvent): void {
    this.pending += 1;
    if (this.pending > this.limits.maxPending) {
      this.distrust('overflow', `more than ${this.limits.maxPending} events since the last read`);
      return;
    }
    const isSelf = SELF_EVENTS.has(event.member) || (event.member === EVENT_MEMBER.propertyChange && SELF_PROPERTIES.has(event.detail));
    const isStructure = event.member === EVENT_MEMBER.childrenChanged;
    if (!isSelf && !isStructure) return;
    if (event.path === ROOT_PATH && isSelf) {
      this.distrust('root-changed', `${event.member} ${event.detail} on the application`);
      return;
    }
    const known = this.entries.get(event.path)?.node;
    // GTK3 marks what scrolled out of view by clearing SHOWING and sends no event for it; the
    // scroll bar's new value is the only sign, and which nodes changed takes a full read to know.
    if (isSelf && known?.role === 'scrollbar' && !known.ref.gtk4) {
      this.distrust('scrolled', `scroll bar ${event.path} moved`);
      return;
    }
    // GTK3 derives SHOWING from every ancestor and announces it on only some of the nodes that
    // change (a popover's inner boxes say nothing), so a change of it needs a full read.
    // GTK 4 never sets SHOWING, and its tree does not show it.
    if (event.member === EVENT_MEMBER.stateChanged && (event.detail === 'showing' || event.detail === 'visible') && this.root?.ref.gtk4 !== true) {
      // A node the tree does not hold yet must turn up read after this event (in a new subtree) or be known to have left.
      this.hidden.add(event.path);
      this.named.add(event.path);
      return;
    }
    // A dead object the tree does not hold cannot be in it (LibreOffice retires the cells each read of a sheet made).
    if (event.member === EVENT_MEMBER.stateChanged && event.detail === 'defunct' && event.detail1 === 1 && known === undefined) {
      this.bury(event.path);
      return;
    }
    this.named.add(event.path);
    if (event.member === EVENT_MEMBER.focus || (event.member === EVENT_MEMBER.stateChanged && event.detail === 'focused' && event.detail1 === 1))
      this.focusMoved = true;
    (isStructure ? this.dirtyChildren : this.dirtySelf).add(event.path);
  }

  /** Marks the whole mirror as stale for a reason the events cannot show (a gap in them). */
  distrust(reason: FallbackReason, detail: string): void {
    this.untrusted ??= new MirrorUntrusted(reason, detail);
  }

  /** Whether the next flush only checks: nothing marked to re-read, nothing that forces a full read. */
  get clean(): boolean {
    return !this.dirty && this.untrusted === undefined;
  }

  /** Whether nodes wait to be seen gone (hidden, or failing calls) before the tree can be trusted. */
  private get leaving(): boolean {
    return this.hidden.size > 0 || this.failed.size > 0;
  }

  get dirty(): boolean {
    return this.dirtySelf.size > 0 || this.dirtyChildren.size > 0;
  }

  /**
   * Re-reads what the marks name, until no new marks came in meanwhile (bounded, since an
   * app that never stops changing has no "now" to mirror). Throws MirrorUntrusted, and the
   * reader's own errors for a frozen or gone app.
   */
  async flush(reader: MirrorReader, rounds = 6): Promise<void> {
    if (this.root === undefined) throw new MirrorUntrusted('generation', 'nothing loaded');
    this.located = new Set();
    if (this.untrusted === undefined) {
      // Three independent checks for what no event told: together they take as long as the slowest.
      const previous = this.rows;
      const announced = new Set(this.dirtySelf);
      this.stateChecks = 0;
      const [rows] = await Promise.all([
        previous === undefined ? undefined : guarded(reader.rows(), 'the cache'),
        // Without a cache (Chromium) every node is walked, and events are all there is to go on.
        previous === undefined ? undefined : this.compareStates(reader, previous),
        this.refreshValues(reader, announced),
      ]);
      if (previous !== undefined && rows !== undefined) this.compareRows(previous, rows);
    }
    // Focus leaves a node without a word where the toolkit tells only of where it went (or of nothing, in parts the cache leaves out).
    for (const [path, entry] of this.entries) if (entry.node.states.focused) this.dirtySelf.add(path);
    for (let round = 0; round < rounds && (this.dirty || this.untrusted !== undefined || this.leaving); round += 1) {
      if (this.untrusted !== undefined) throw this.untrusted;
      const structure = [...this.dirtyChildren];
      const self = [...this.dirtySelf];
      if (this.focusMoved) for (const [path, entry] of this.entries) if (entry.node.states.focused) self.push(path);
      const named = [...this.named];
      const mustLeave: [string, FallbackReason][] = [
        ...[...this.hidden].map((path): [string, FallbackReason] => [path, 'visibility']),
        ...[...this.failed].map((path): [string, FallbackReason] => [path, 'failed-call']),
      ];
      this.clearMarks();
      const fresh = new Set<string>();
      await this.patchStructure(reader, structure, fresh);
      const stayed = mustLeave.find(([path]) => this.entries.has(path) && !fresh.has(path));
      if (stayed !== undefined)
        this.distrust(stayed[1], `${stayed[0]} is still in the tree after ${stayed[1] === 'visibility' ? 'its visibility changed' : 'a call on it failed'}`);
      await this.patchNodes(reader, self, fresh);
      await this.locateMissed(
        reader,
        named.filter((path) => !this.entries.has(path) && !this.tombstones.has(path)),
        new Set(structure),
      );
      if (this.entries.size >= this.limits.maxNodes) this.distrust('too-large', `${this.entries.size} nodes reach the read's cap`);
    }
    if (this.untrusted !== undefined) throw this.untrusted;
    if (this.dirty || this.leaving) throw new MirrorUntrusted('overflow', 'the app kept changing while it was read');
    // Names guessed from where labels sit move with the layout, which changes with no event of its own,
    // and a toolkit places a changed page's labels a frame or more after the change: so the read after
    // a change guesses once more. GTK 4 (gtk4-widget-factory's Page 2, under load): a slider guessed
    // unnamed in the read that saw the tab switch was "Row 2" in every whole read after it.
    const changed = this.served === undefined;
    if ((changed || this.relayoutAgain) && this.root !== undefined) await this.renameFromLayout(reader, this.root);
    this.relayoutAgain = changed;
  }

  /**
   * Nodes an event named that the tree does not hold, after the marks were read, placed by their
   * parents (mirror-locate.ts): one outside the app's tree is remembered as such; one a held
   * parent lists now has that list read again (a silent change), so the next round reads it in.
   */
  private async locateMissed(reader: MirrorReader, missed: string[], relisted: ReadonlySet<string>): Promise<void> {
    const first = missed[0];
    if (first === undefined) return;
    const parent = reader.parent;
    if (parent === undefined) return this.distrust('unknown-node', `an event named ${first}, which the tree does not hold`);
    const again = missed.find((path) => this.located.has(path));
    if (again !== undefined)
      return this.distrust('unknown-node', `${again} is listed under a node the tree holds, yet reading that list again did not bring it in`);
    const placed = await locateNodes(missed, {
      held: (path) => (this.entries.has(path) ? { range: this.isRangeTable(path) } : undefined),
      relisted,
      parent,
      children: async (path) => {
        const listed = await this.tolerated(reader.children(path), path, `the children of ${path}`);
        return listed === undefined ? undefined : this.asFetched(path, listed);
      },
      isTimeout,
    });
    if (placed.unplaced !== undefined) return this.distrust('unknown-node', placed.unplaced);
    for (const path of placed.outside) this.bury(path);
    for (const [holder, paths] of placed.missedUnder) {
      this.mark(this.dirtyChildren, holder);
      for (const path of paths) {
        this.named.add(path);
        this.located.add(path);
      }
    }
  }

  private async renameFromLayout(reader: MirrorReader, root: Node): Promise<void> {
    const rawName = (node: Node): string => this.rows?.get(node.ref.path)?.name ?? (node.nameFrom === 'geometry' ? '' : node.name);
    const { candidates, names } = await guarded(reader.relayout(root, rawName), 'the layout');
    for (const path of candidates) {
      const node = this.entries.get(path)?.node;
      if (node === undefined) continue;
      const guessed = names.get(path);
      if (guessed !== undefined && (node.name !== guessed || node.nameFrom !== 'geometry')) {
        node.name = guessed;
        node.nameFrom = 'geometry';
        this.served = undefined;
      } else if (guessed === undefined && node.nameFrom === 'geometry') {
        node.name = rawName(node).trim();
        delete node.nameFrom;
        this.served = undefined;
      }
    }
  }

  /**
   * Marks every node whose cache row changed since the last comparison: its own fields, and
   * the child lists it left, joined or changed in size. Rows under a node the tree does not
   * hold are left to that node's own patch (or were never part of the tree).
   */
  private compareRows(before: CacheRows, rows: CacheRows): void {
    this.rows = rows;
    const markList = (path: string): void => {
      if (this.entries.has(path)) this.mark(this.dirtyChildren, path);
    };
    for (const [path, row] of rows) {
      const old = before.get(path);
      if (old === undefined) markList(parentOf(row));
      else if (rowKey(old) !== rowKey(row)) {
        if (this.entries.has(path)) this.mark(this.dirtySelf, path);
        markList(path);
        markList(parentOf(row));
        markList(parentOf(old));
      }
    }
    for (const [path, old] of before) if (!rows.has(path)) markList(parentOf(old));
    // The cache may reorder a parent's children with no row changing (GTK 4 raising a dialog): lists the cache gives whole must match it.
    const byRows = this.rowChildren();
    for (const [path, entry] of this.entries) {
      const row = rows.get(path);
      const kids = byRows.get(path) ?? [];
      if (row === undefined || (row.childCount !== 0 && kids.length !== row.childCount)) continue;
      const current = entry.node.children ?? [];
      if (current.length !== kids.length || current.some((child, at) => child.ref.path !== kids[at])) markList(path);
    }
  }

  /**
   * Nodes the cache leaves out (GTK3 list rows, a popup's insides) are read by walking, and a
   * toolkit changes their sensitivity or visibility unannounced too: their states are read
   * again, one call each, and a node whose states differ is read again whole.
   */
  private async compareStates(reader: MirrorReader, rows: CacheRows): Promise<void> {
    // Where every change is announced, a re-read of each walked node (a call a node, a whole read's cost) finds nothing the events missed.
    const walked = this.walkedToCheck(reader, rows);
    this.stateChecks = walked.length;
    const states = await mapLimit(walked, CONCURRENCY, (node) => this.tolerated(reader.states(node), node.ref.path, `the states of ${node.ref.path}`));
    walked.forEach((node, at) => {
      if (states[at] === undefined) return;
      if (JSON.stringify(sortedEntries(states[at] as Node['states'])) !== JSON.stringify(sortedEntries(node.states))) this.mark(this.dirtySelf, node.ref.path);
    });
  }

  /** Whether a node is a table read by its visible range (it makes its children on demand). */
  private isRangeTable(path: string): boolean {
    return this.entries.get(path)?.node.ref.huge === true;
  }

  /** A mark no event made; counted, so a bench can say how often the events fell short. */
  private mark(marks: Set<string>, path: string): void {
    if (!marks.has(path)) this.silentChanges += 1;
    marks.add(path);
  }

  /**
   * A copy of the tree, so callers keep what they got while the mirror moves on. Until
   * something changes, every read gets the same copy (as the tree cache did before).
   */
  snapshot(): Node {
    if (this.root === undefined) throw new MirrorUntrusted('generation', 'nothing loaded');
    this.served ??= copy(this.root);
    return this.served;
  }

  private clearMarks(): void {
    this.dirtySelf = new Set();
    this.dirtyChildren = new Set();
    this.named = new Set();
    this.hidden = new Set();
    this.failed = new Set();
    this.focusMoved = false;
    this.pending = 0;
  }

  private index(node: Node, parent: string | undefined, depth: number): void {
    this.entries.set(node.ref.path, { node, parent, depth });
    this.tombstones.delete(node.ref.path);
    for (const child of node.children ?? []) this.index(child, node.ref.path, depth + 1);
  }

  private drop(node: Node): void {
    this.entries.delete(node.ref.path);
    this.bury(node.ref.path);
    for (const child of node.children ?? []) this.drop(child);
  }

  private bury(path: string): void {
    if (this.tombstones.size >= TOMBSTONE_LIMIT) this.tombstones.clear();
    this.tombstones.add(path);
  }

  /**
   * An object the app said is gone (a call on it failed with UnknownObject, on the act path):
   * as for a failed call during a read, its parent's list (a sheet's range) is read again on the
   * next read, which must find it gone, or the mirror falls back to a full read.
   */
  objectGone(path: string): void {
    const entry = this.entries.get(path);
    if (entry?.parent === undefined) return;
    this.failed.add(path);
    this.dirtyChildren.add(entry.parent);
  }

  /**
   * A call on a node the tree holds that failed: the node may be dying (LibreOffice destroys a
   * sidebar's toolbars on every edit). Its parent's list is read again, and the next structure
   * patch must find the node gone, or the mirror falls back. Undefined stands for the failure.
   */
  private async tolerated<T>(work: Promise<T>, path: string, what: string): Promise<T | undefined> {
    try {
      return await work;
    } catch (error) {
      const entry = this.entries.get(path);
      if (isTimeout(error) || entry?.parent === undefined) throw guardedError(error, what);
      this.failed.add(path);
      this.dirtyChildren.add(entry.parent);
      return undefined;
    }
  }

  /** The window title a node's subtree is read under: undefined makes a root child its own window. */
  private windowUnder(parent: Entry): string | undefined {
    return parent.node.ref.path === ROOT_PATH ? undefined : parent.node.ref.window;
  }

  /** Child lists first, shallowest parent first: a parent's new subtree already holds its children's news. */
  private async patchStructure(reader: MirrorReader, parents: string[], fresh: Set<string>): Promise<void> {
    // A sheet's children are the cells on screen, which only its range read works out; listing them would swamp the app.
    const ranges = parents.filter((path) => this.isRangeTable(path));
    await Promise.all(ranges.map((path) => this.rereadRange(reader, path, fresh)));
    const known = parents.filter((path) => this.entries.has(path) && !this.isRangeTable(path));
    const lists = await Promise.all(known.map((path) => this.childrenOf(reader, path)));
    const order = known
      .flatMap((path, at) => {
        const kids = lists[at];
        return kids === undefined ? [] : [{ path, kids }];
      })
      .sort((a, b) => this.depthOf(a.path) - this.depthOf(b.path));
    for (const { path, kids } of order) {
      const parent = this.entries.get(path);
      if (parent === undefined || fresh.has(path)) continue;
      await this.relist(reader, parent, kids, fresh);
    }
  }

  /**
   * A table read by its visible range, read again as a full read reads it (table-range.ts): the
   * cells on screen now, named by address and described by headers. Its cells are new objects
   * (a sheet makes one per request), so the old ones leave the tree; the table keeps its place.
   */
  private async rereadRange(reader: MirrorReader, path: string, fresh: Set<string>): Promise<void> {
    const entry = this.entries.get(path);
    if (entry === undefined || fresh.has(path)) return;
    const parent = entry.parent === undefined ? undefined : this.entries.get(entry.parent);
    const depthLeft = this.limits.maxDepth - entry.depth;
    const read = await guarded(
      reader.subtree(path, parent === undefined ? undefined : this.windowUnder(parent), depthLeft, this.rows),
      `the visible range of ${path}`,
    );
    for (const child of entry.node.children ?? []) this.drop(child);
    this.replace(entry, read);
    if (read.children !== undefined && read.children.length > 0) entry.node.children = read.children;
    else delete entry.node.children;
    for (const child of read.children ?? []) {
      this.index(child, path, entry.depth + 1);
      for (const added of subtreeOf(child)) fresh.add(added.ref.path);
    }
    fresh.add(path);
    this.served = undefined;
  }

  private depthOf(path: string): number {
    return this.entries.get(path)?.depth ?? 0;
  }

  private async relist(reader: MirrorReader, parent: Entry, listed: string[], fresh: Set<string>): Promise<void> {
    const path = parent.node.ref.path;
    const kids = this.asFetched(path, listed);
    const before = parent.node.children ?? [];
    const wanted = new Set(kids);
    for (const child of before) if (!wanted.has(child.ref.path)) this.drop(child);
    const kept = new Map(before.filter((child) => wanted.has(child.ref.path)).map((child) => [child.ref.path, child]));
    const depthLeft = this.limits.maxDepth - parent.depth - 1;
    if (depthLeft < 0) return;
    const added = kids.filter((kid) => !kept.has(kid));
    const read = await Promise.all(added.map((kid) => guarded(reader.subtree(kid, this.windowUnder(parent), depthLeft, this.rows), `the new node ${kid}`)));
    const fetched = new Map(added.map((kid, at) => [kid, read[at] as Node]));
    const children = kids.map((kid) => kept.get(kid) ?? (fetched.get(kid) as Node));
    for (const node of fetched.values()) {
      // A node that moved here from elsewhere (a popup's insides move with it) leaves its old place.
      for (const moved of subtreeOf(node)) {
        const old = this.entries.get(moved.ref.path);
        if (old !== undefined && old.node !== moved) this.detach(old);
      }
      this.index(node, path, parent.depth + 1);
      for (const added of subtreeOf(node)) fresh.add(added.ref.path);
    }
    if (children.length === before.length && children.every((child, at) => child === before[at])) return;
    this.served = undefined;
    if (children.length > 0) parent.node.children = children;
    else delete parent.node.children;
  }

  /**
   * A parent's children from where a full read takes them: the cache's rows, in its order,
   * when they list them all (GTK 4 gives an entry's completion popover a row but a child count
   * of 0, and GetChildren leaves it out; GTK3 orders overlay scroll bars otherwise), GetChildren
   * otherwise.
   */
  private async childrenOf(reader: MirrorReader, path: string): Promise<string[] | undefined> {
    // A sheet's cells are read by their visible range, which only a full read works out; listing them would swamp the app.
    if (this.entries.get(path)?.node.ref.huge === true) throw new MirrorUntrusted('too-large', `${path} has too many children to list`);
    const row = this.rows?.get(path);
    if (row !== undefined) {
      const kids = this.rowChildren().get(path) ?? [];
      if (row.childCount === 0 || kids.length === row.childCount) return kids;
    }
    return this.tolerated(reader.children(path), path, `the children of ${path}`);
  }

  /** Each parent's children by the cache, in its order; worked out once per cache answer. */
  private rowChildren(): Map<string, string[]> {
    const rows = this.rows;
    if (rows === undefined) return new Map();
    if (this.childrenByRows?.rows !== rows) this.childrenByRows = { rows, map: rowChildren(rows) };
    return this.childrenByRows.map;
  }

  /**
   * A child the cache places under another parent stays there (GTK3 lists a popup's insides under
   * two parents), as in a full read, but only where that parent is in the tree: a full read adopts
   * a child whose cache parent it never reaches where GetChildren listed it (tree-walk.ts,
   * adoptOrphans). LibreOffice Calc lists 11 empty groups under its window whose rows name
   * sidebar panels it detached; a row alone for such a panel dropped them for good whenever the
   * window's list was read again (11 nodes short of a whole read, until the next full read).
   */
  private asFetched(parent: string, listed: string[]): string[] {
    const rows = this.rows;
    return rows === undefined
      ? listed
      : listed.filter((kid) => !placedElsewhere(rows.get(kid)?.parentPath, parent, (other) => other === ROOT_PATH || this.entries.has(other)));
  }

  private detach(entry: Entry): void {
    const parent = entry.parent === undefined ? undefined : this.entries.get(entry.parent);
    if (parent?.node.children !== undefined) parent.node.children = parent.node.children.filter((child) => child !== entry.node);
    this.drop(entry.node);
    this.served = undefined;
  }

  private async patchNodes(reader: MirrorReader, paths: string[], fresh: Set<string>): Promise<void> {
    const targets = paths.filter((path) => this.entries.has(path) && !fresh.has(path));
    const read = await Promise.all(
      targets.map((path) => {
        const entry = this.entries.get(path) as Entry;
        const parent = entry.parent === undefined ? undefined : this.entries.get(entry.parent);
        return this.tolerated(reader.node(path, parent === undefined ? undefined : this.windowUnder(parent)), path, `the node ${path}`);
      }),
    );
    targets.forEach((path, at) => {
      const fields = read[at];
      if (fields !== undefined) this.replace(this.entries.get(path) as Entry, fields);
    });
  }

  /** The walked nodes whose states a patched read reads again (none where the bridge announces them all). */
  private walkedToCheck(reader: MirrorReader, rows: CacheRows): Node[] {
    const announced = reader.walkedStatesAnnounced ?? false;
    if (announced === true) return [];
    return [...this.entries.values()]
      .filter(({ node, parent }) => parent !== undefined && !rows.has(node.ref.path) && (announced === false || this.isRangeTable(parent)))
      .map(({ node }) => node);
  }

  private valuedToCheck(reader: MirrorReader, announced: ReadonlySet<string>): Node[] {
    return [...this.entries.values()].filter(({ node }) => !announced.has(node.ref.path) && reader.hasValue(node)).map(({ node }) => node);
  }

  /**
   * Right after a load, what the next patched read will read again, counted as that read counts
   * it: a search asks checkReads before it takes the mirror, and without this the first search
   * after a whole read (the settling read that makes the mirror servable is one) goes to
   * Collection, which costs a 20,000-node Chromium page ~130 ms of its CPU against a few ms here.
   */
  expectChecks(reader: MirrorReader): void {
    this.valueChecks = this.valuedToCheck(reader, new Set()).length;
    this.stateChecks = this.rows === undefined ? 0 : this.walkedToCheck(reader, this.rows).length;
  }

  /** Text and numeric values change without events on every toolkit, so each is read again (those an event already marked aside). */
  private async refreshValues(reader: MirrorReader, announced: Set<string>): Promise<void> {
    const valued = this.valuedToCheck(reader, announced);
    this.valueChecks = valued.length;
    const reads = await mapLimit(valued, CONCURRENCY, (node) => this.tolerated(reader.value(node), node.ref.path, `the value of ${node.ref.path}`));
    valued.forEach((node, at) => {
      const read = reads[at];
      if (read === undefined) return;
      const { value, truncated } = read;
      if (node.value === value && (node.valueTruncated === true) === (truncated === true)) return;
      if (value === undefined) delete node.value;
      else node.value = value;
      if (truncated === true) node.valueTruncated = true;
      else delete node.valueTruncated;
      this.silentChanges += 1;
      this.served = undefined;
    });
  }

  /** Puts a re-read node's fields in place, keeping its children (they have marks of their own). */
  private replace(entry: Entry, read: Node): void {
    const node = entry.node;
    const oldName = node.name;
    const { children: _children, ...fields } = read;
    // A single node read cannot see the labels around it, so a name guessed from them stays.
    if (node.nameFrom === 'geometry' && fields.nameFrom === undefined && fields.name === '') {
      fields.name = node.name;
      fields.nameFrom = 'geometry';
    }
    // Nor the table a cell of a range read sits in, which gave it its address and headers (table-range.ts).
    if (entry.parent !== undefined && this.isRangeTable(entry.parent)) {
      if (fields.name === '') fields.name = node.name;
      if ((fields.description ?? '') === '' && node.description !== undefined) fields.description = node.description;
    }
    const { children: _kept, ...current } = node;
    if (JSON.stringify(current) === JSON.stringify(fields)) return;
    this.served = undefined;
    for (const key of Object.keys(node) as (keyof Node)[]) if (key !== 'children') delete node[key];
    Object.assign(node, fields);
    if (oldName !== node.name) this.renamed(entry, oldName);
  }

  /**
   * A renamed window renames the window its descendants are in (GTK 4 places their bounds by
   * it). A renamed node may be the label some field took its name or description from: only
   * a full read finds those fields again.
   */
  private renamed(entry: Entry, oldName: string): void {
    if (entry.parent === ROOT_PATH) {
      const window = entry.node.name;
      const rename = (node: Node): void => {
        for (const child of node.children ?? []) {
          child.ref = { ...child.ref, window };
          rename(child);
        }
      };
      rename(entry.node);
    }
    const borrowed = oldName.trim();
    if (borrowed === '') return;
    for (const { node } of this.entries.values()) {
      if (node === entry.node) continue;
      if ((node.nameFrom !== undefined && node.name.includes(borrowed)) || (node.description?.includes(borrowed) ?? false)) {
        this.distrust('derived-name', `"${borrowed}" was renamed, and another node took its name or description from it`);
        return;
      }
    }
  }
}

function parentOf(row: CacheRow): string {
  return row.parentPath ?? '';
}

/** Everything about a row a full read builds on: equal keys, nothing to read again. */
function rowKey(row: CacheRow): string {
  return JSON.stringify([parentOf(row), row.index, row.childCount, row.role, row.name, row.description, row.states, row.interfaces]);
}

function sortedEntries(states: Node['states']): [string, unknown][] {
  return Object.entries(states).sort(([a], [b]) => a.localeCompare(b));
}

function subtreeOf(node: Node): Node[] {
  return [node, ...(node.children ?? []).flatMap(subtreeOf)];
}

function copy(node: Node): Node {
  const { children, states, ...fields } = node;
  const copied: Node = { ...fields, states: { ...states }, actions: [...node.actions] };
  if (children !== undefined) copied.children = children.map(copy);
  return copied;
}

/** A call that failed while patching (the node went away, the app answered an error) means the patch is unsure. */
async function guarded<T>(work: Promise<T>, what: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw guardedError(error, what);
  }
}

function guardedError(error: unknown, what: string): Error {
  if (isTimeout(error)) return error as Error;
  return new MirrorUntrusted('failed-call', `reading ${what} failed: ${(error as Error).message}`);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'DbusTimeoutError' || (error as { code?: unknown }).code === 'TIMEOUT');
}
