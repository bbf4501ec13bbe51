import type { Pointer } from '../../../../native/macos';
import { DeskpilotError, NodeNotFoundError, TimeoutError } from '../../../shared/errors';
import type { Role } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import type { AxClient } from './ax-client';
import { AXError, NoAccessibilityError, isMissing } from './ax-errors';
import type { JsValue } from './cf';
import { describeNode, text, type MacRef } from './describe-node';
import { LABELLED_ROLES } from '../../ui/infer-names';
import { SECURE_SUBROLE, normalizeRole } from './roles';
import { windowKey, type WindowKey } from './window-key';

export { MAX_TREE_TEXT, type MacRef } from './describe-node';

/**
 * Read in one AXUIElementCopyMultipleAttributeValues call per node, in this order. AXValue is
 * not among them: the batch is asked before the role is known, and a secure field's value must
 * never cross into this process (Chromium and WebKit send bullets, other toolkits may send the
 * text), so values are read one by one once the node is known not to be secret (readValue).
 */
export const NODE_ATTRIBUTES = [
  'AXRole',
  'AXSubrole',
  'AXTitle',
  'AXDescription',
  'AXHelp',
  'AXIdentifier',
  'AXEnabled',
  'AXFocused',
  'AXPosition',
  'AXSize',
  'AXPlaceholderValue',
  'AXTitleUIElement',
  'AXChildren',
] as const;

type Attribute = (typeof NODE_ATTRIBUTES)[number];
/** Longer identifiers are not ids a person or a workflow would keep (generated blobs); they are left out. */
const MAX_IDENTIFIER = 200;
const SLOT = new Map<Attribute, number>(NODE_ATTRIBUTES.map((name, index) => [name, index]));

/**
 * Roles whose children can run into the thousands. AXChildren inside a batch is one IPC that
 * fails whole when the list is slow to send, costing the messaging timeout before a retry;
 * AXUIElement.h recommends AXUIElementCopyAttributeValues for "a table view with a large
 * number of children". So these are counted first and paged, never batched.
 */
export const LIST_ROLES: ReadonlySet<string> = new Set(['AXList', 'AXTable', 'AXOutline', 'AXBrowser', 'AXGrid']);
/**
 * AppKit puts every table, outline and collection view inside a scroll view, so the children of
 * an AXScrollArea are where big lists are: they are read without AXChildren in their batch, as
 * their role is not known before it.
 */
const LIST_PARENT = 'AXScrollArea';
/** Roles whose AXValue the tree shows, read apart from the batch and never for a secure field. */
const VALUE_ROLES: ReadonlySet<Role> = new Set<Role>([
  'label',
  'checkbox',
  'radio',
  'switch',
  'togglebutton',
  'tab',
  'slider',
  'spinbutton',
  'progressbar',
  'textfield',
  'textarea',
  'combobox',
  'cell',
]);

/**
 * Whether the walk reads a node's AXValue (one more IPC after its batch): value roles only, never
 * a secure field. Exported so the Swift reference walk (test/macos/ax-dump.swift) makes the same reads.
 */
export function readsValue(axRole: string, subrole: string | undefined): boolean {
  return subrole !== SECURE_SUBROLE && axRole !== SECURE_SUBROLE && VALUE_ROLES.has(normalizeRole(axRole, subrole));
}

/** Children are paged this many at a time when the batch could not carry the whole list. */
export const CHILD_PAGE = 100;

export interface WalkLimits {
  maxNodes: number;
  maxDepth: number;
  signal?: AbortSignal;
}

interface Budget {
  left: number;
  limits: WalkLimits;
  /** Nodes skipped because they timed out even without AXChildren. */
  timeouts?: number;
}

/** Skipped timed-out nodes after which the whole read fails with TIMEOUT. */
export const MAX_SKIPPED_TIMEOUTS = 3;

/** How a node's children are read when the batch did not bring them as a list. */
type ChildReading = 'none' | 'count' | 'ranged';

/** What the walk knows of a node before its batch. */
interface NodeKind {
  isApp: boolean;
  /** Likely a big list: its batch leaves AXChildren out, and they are counted and paged. */
  listLike: boolean;
  /** The window the node is in (its own key for a window of the app): put on every ref. */
  window?: WindowKey;
  /** An item of the app's AXWindows: its key is made from its own batch. */
  isWindow?: boolean;
}

/** The depth-first walk of one app or subtree. Borrowed children live as long as the array that holds them. */
export class TreeWalker {
  /** The attribute-name arrays, with and without AXChildren, built once per walker. */
  private readonly names = new Map<boolean, Pointer>();

  constructor(private readonly client: AxClient) {}

  /** An app: its own attributes, then its windows (AXWindows, not AXChildren, which adds the menu bar). */
  async walkApp(pid: number, app: Pointer, limits: WalkLimits): Promise<RawNode<MacRef>> {
    const node = await this.walk(pid, app, [], limits, true);
    if (node === undefined) throw new NodeNotFoundError(`pid ${pid} has no accessibility element`);
    return node;
  }

  /**
   * `axRole`, when the caller knows it (readSubtree): a list is then paged from the start.
   * `window`: the key of the window the element is in, for the refs of the nodes read.
   */
  async walk(
    pid: number,
    element: Pointer,
    path: number[],
    limits: WalkLimits,
    isApp = false,
    axRole?: string,
    window?: WindowKey,
  ): Promise<RawNode<MacRef> | undefined> {
    const kind: NodeKind = { isApp, listLike: !isApp && axRole !== undefined && LIST_ROLES.has(axRole), ...(window === undefined ? {} : { window }) };
    return this.node(pid, element, path, 0, { left: limits.maxNodes, limits }, kind);
  }

  /**
   * One node as the whole walk builds it (same batch, value and subrole reads, same ref), with
   * `childCount` and no children: what readChildren gives (children-read.ts). A node that went
   * away or did not answer is undefined, except the app root, whose failure is the caller's.
   * `shared` carries skipped timeouts across the nodes of one read (MAX_SKIPPED_TIMEOUTS).
   */
  async readOne(
    pid: number,
    element: Pointer,
    path: number[],
    kind: { isApp?: boolean; listLike?: boolean; isWindow?: boolean; window?: WindowKey },
    shared: { timeouts?: number; signal?: AbortSignal },
  ): Promise<RawNode<MacRef> | undefined> {
    const limits: WalkLimits = { maxNodes: 1, maxDepth: 0, ...(shared.signal === undefined ? {} : { signal: shared.signal }) };
    const budget: Budget = { left: 1, limits, ...(shared.timeouts === undefined ? {} : { timeouts: shared.timeouts }) };
    const isApp = kind.isApp === true;
    try {
      // Depth 1 for any other node: at maxDepth 0 its children are counted, never walked, and a failure skips it.
      const node = await this.node(pid, element, path, isApp ? 0 : 1, budget, { ...kind, isApp, listLike: kind.listLike === true });
      return node === undefined ? undefined : { ...node, childCount: node.childCount ?? 0 };
    } finally {
      if (budget.timeouts !== undefined) shared.timeouts = budget.timeouts;
    }
  }

  /** Releases the attribute-name arrays. */
  dispose(): void {
    for (const names of this.names.values()) this.client.cf.release(names);
    this.names.clear();
  }

  private nameArray(withChildren: boolean): Pointer {
    let names = this.names.get(withChildren);
    if (names === undefined) {
      const list = withChildren ? NODE_ATTRIBUTES : NODE_ATTRIBUTES.filter((name) => name !== 'AXChildren');
      names = this.client.cf.createArray(list.map((name) => this.client.cf.name(name)));
      this.names.set(withChildren, names);
    }
    return names;
  }

  /**
   * The node's batch. One that asked for AXChildren and failed (often a list too slow to send
   * whole) is asked again without it, at any depth, and the children are paged; a node that
   * still fails is skipped so the rest of the tree survives. The app root never asks for
   * AXChildren (its windows come from AXWindows), so its failure is the caller's (TIMEOUT).
   */
  private async batch(
    pid: number,
    element: Pointer,
    depth: number,
    budget: Budget,
    kind: NodeKind,
  ): Promise<{ values: Pointer; withChildren: boolean } | undefined> {
    const withChildren = !kind.isApp && !kind.listLike;
    try {
      return { values: await this.client.copyMultiple(element, this.nameArray(withChildren), pid), withChildren };
    } catch (error) {
      if (kind.isApp || !skippable(error)) throw error;
      // A node can vanish while the tree is read: that node is skipped, not the walk.
      if (error instanceof NodeNotFoundError) return this.skip(error, depth, budget);
      if (!withChildren) return this.skip(error, depth, budget);
    }
    try {
      return { values: await this.client.copyMultiple(element, this.nameArray(false), pid), withChildren: false };
    } catch (error) {
      return this.skip(error, depth, budget);
    }
  }

  /** A node given up on. Each skipped timeout cost a messaging timeout or two: an app that keeps not answering is hung, and the read says so. */
  private skip(error: unknown, depth: number, budget: Budget): undefined {
    if (depth === 0 || !skippable(error)) throw error;
    if (error instanceof TimeoutError && (budget.timeouts = (budget.timeouts ?? 0) + 1) >= MAX_SKIPPED_TIMEOUTS) throw error;
    return undefined;
  }

  private async node(pid: number, element: Pointer, path: number[], depth: number, budget: Budget, kind: NodeKind): Promise<RawNode<MacRef> | undefined> {
    budget.limits.signal?.throwIfAborted();
    budget.left -= 1;
    const { cf } = this.client;
    const batch = await this.batch(pid, element, depth, budget, kind);
    if (batch === undefined) return undefined;
    return cf.owned(batch.values, async (values) => {
      // Bounds-checked: an answer can hold fewer slots than names asked (a missing slot is null).
      const at = cf.slots(values);
      const slot = (name: Attribute): Pointer | null => (name === 'AXChildren' && !batch.withChildren ? null : at(SLOT.get(name) as number));
      const read = (name: Attribute): JsValue => cf.toJs(slot(name));
      const axRole = text(read('AXRole')) ?? '';
      const subrole = await this.subrole(pid, element, axRole, read('AXSubrole'));
      const value = readsValue(axRole, subrole) ? await this.readValue(pid, element) : undefined;
      const node = describeNode({ pid, path, axRole, subrole, raw: value }, read);
      const window = kind.isWindow === true ? windowKey(text(read('AXIdentifier')), text(read('AXTitle')) ?? '', node.bounds) : kind.window;
      if (window !== undefined) node.ref.window = window;
      // The app's own id for the element (AppKit's, or a developer's): what workflows find it by first.
      const identifier = text(read('AXIdentifier'))?.trim();
      if (identifier !== undefined && identifier !== '' && identifier.length <= MAX_IDENTIFIER) node.toolkitId = identifier;
      if (node.name === '' && LABELLED_ROLES.has(node.role)) await this.nameFromTitleElement(pid, node, slot('AXTitleUIElement'));
      // An icon-only button's tooltip, or a field's hint text, is the only name it has.
      if (node.name === '') node.name = text(read('AXHelp'))?.trim() || node.placeholder || '';
      // Nothing under a secure field is read: its parts can carry the secret too.
      if (node.states.secret === true) return node;
      const childKind: NodeKind = {
        isApp: false,
        listLike: axRole === LIST_PARENT,
        ...(kind.isApp ? { isWindow: true } : window === undefined ? {} : { window }),
      };
      const walkChildren = async (items: Pointer[], offset: number): Promise<void> => {
        for (const [index, item] of items.entries()) {
          if (budget.left <= 0) return;
          const child = await this.node(pid, item, [...path, offset + index], depth + 1, budget, childKind);
          if (child !== undefined) (node.children ??= []).push(child);
        }
      };
      if (kind.isApp) {
        const windows = await this.client.copy(element, 'AXWindows', pid);
        if (windows === undefined) return node;
        return cf.owned(windows, async (windows) => this.children(node, cf.arrayItems(windows), depth, budget, (items) => walkChildren(items, 0)));
      }
      const children = slot('AXChildren');
      if (children !== null && cf.typeOf(children) === cf.types.array) {
        return this.children(node, cf.arrayItems(children), depth, budget, (items) => walkChildren(items, 0));
      }
      const reading = batch.withChildren ? childReading(read('AXChildren'), children === null) : 'count';
      if (reading === 'none') return node;
      try {
        await this.paged(node, element, pid, depth, budget, walkChildren, reading);
      } catch (error) {
        if (depth === 0 || !skippable(error)) throw error;
      }
      return node;
    });
  }

  /**
   * Children by AXUIElementCopyAttributeValues, CHILD_PAGE at a time. 'count': counted first
   * (AXUIElementGetAttributeValueCount), so the node says how many there are even where the caps
   * stop the walk. 'ranged': the element calls AXChildren unsupported, yet the ranged copy may
   * still answer (Books.app, vimac #386), so pages are asked until one comes back short.
   */
  private async paged(
    node: RawNode<MacRef>,
    element: Pointer,
    pid: number,
    depth: number,
    budget: Budget,
    walk: (items: Pointer[], offset: number) => Promise<void>,
    reading: 'count' | 'ranged',
  ): Promise<void> {
    const { cf } = this.client;
    const count = reading === 'count' ? await this.client.count(element, 'AXChildren', pid) : undefined;
    if (count === 0) return;
    if (count !== undefined) node.childCount = count;
    if (depth >= budget.limits.maxDepth) return;
    for (let start = 0; budget.left > 0 && (count === undefined || start < count); start += CHILD_PAGE) {
      const size = Math.min(CHILD_PAGE, count === undefined ? CHILD_PAGE : count - start, budget.left);
      const page = await this.client.copyRange(element, 'AXChildren', start, size, pid);
      if (page === undefined) break;
      const got = await cf.owned(page, async (page) => {
        const items = cf.arrayItems(page);
        await walk(items, start);
        return items.length;
      });
      if (count === undefined && got < size) break;
    }
    if (count !== undefined && (node.children?.length ?? 0) >= count) delete node.childCount;
  }

  /**
   * A control with no title or description takes its name from the element that labels it
   * (AXTitleUIElement), as VoiceOver does. The element is borrowed from the batch; the text
   * read from it is owned and released.
   */
  private async nameFromTitleElement(pid: number, node: RawNode<MacRef>, titleElement: Pointer | null): Promise<void> {
    const { cf } = this.client;
    if (titleElement === null || cf.typeOf(titleElement) !== cf.types.element) return;
    for (const attribute of ['AXValue', 'AXTitle']) {
      const value = await this.client.copy(titleElement, attribute, pid).catch(() => undefined);
      const label = value === undefined ? undefined : text(cf.ownedSync(value, (owned) => cf.toJs(owned)));
      if (label !== undefined && label.trim() !== '') {
        node.name = label.trim();
        node.nameFrom = 'label';
        return;
      }
    }
  }

  /** A node's AXValue on its own, once it is known not to be secret; a value that cannot be read is left out, not the node. */
  private async readValue(pid: number, element: Pointer): Promise<JsValue> {
    const { cf } = this.client;
    try {
      const value = await this.client.copy(element, 'AXValue', pid);
      return value === undefined ? undefined : cf.ownedSync(value, (owned) => cf.toJs(owned));
    } catch (error) {
      if (skippable(error)) return undefined;
      throw error;
    }
  }

  /**
   * The subrole, which decides whether a value is secret. For a text field whose batch slot
   * is CFNull or an error it is asked once more on its own; if that fails too the field is
   * treated as secure (SECURE_SUBROLE), since reading a password by mistake is the worse error.
   */
  private async subrole(pid: number, element: Pointer, axRole: string, batched: JsValue): Promise<string | undefined> {
    if (typeof batched === 'string') return batched === '' ? undefined : batched;
    if (typeof batched === 'object' && 'axError' in batched && isMissing(batched.axError)) return undefined;
    if (axRole !== 'AXTextField') return undefined;
    try {
      const value = await this.client.copy(element, 'AXSubrole', pid);
      if (value === undefined) return undefined;
      const { cf } = this.client;
      return text(cf.ownedSync(value, (value) => cf.toJs(value)));
    } catch {
      return SECURE_SUBROLE;
    }
  }

  private async children(
    node: RawNode<MacRef>,
    items: Pointer[],
    depth: number,
    budget: Budget,
    walk: (items: Pointer[]) => Promise<void>,
  ): Promise<RawNode<MacRef>> {
    if (items.length === 0) return node;
    if (depth >= budget.limits.maxDepth) return { ...node, childCount: items.length };
    await walk(items);
    if ((node.children?.length ?? 0) < items.length) node.childCount = items.length;
    return node;
  }
}

/**
 * What an AXChildren slot that holds no list says about the children. CFNull or kAXErrorNoValue:
 * none. kAXErrorAttributeUnsupported: try the ranged copy, which can answer where the plain read
 * does not (vimac #386; a blanket switch to it was reverted in vimac #398, so it is only the
 * fallback here). Any other error, or no slot at all (a short answer): count and page.
 */
function childReading(slot: JsValue, absent: boolean): ChildReading {
  if (absent) return 'count';
  if (typeof slot !== 'object' || !('axError' in slot)) return 'none';
  if (slot.axError === AXError.NoValue) return 'none';
  return slot.axError === AXError.AttributeUnsupported ? 'ranged' : 'count';
}

/** Failures that cost one node, not the tree: it vanished, did not answer, refused, or speaks no accessibility. */
function skippable(error: unknown): boolean {
  return (
    error instanceof NodeNotFoundError ||
    error instanceof TimeoutError ||
    error instanceof NoAccessibilityError ||
    (error instanceof DeskpilotError && error.code === 'ACTION_FAILED')
  );
}
