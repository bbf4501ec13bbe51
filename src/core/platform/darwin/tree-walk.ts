import type { Pointer } from '../../../../native/macos';
import { DeskpilotError, NodeNotFoundError, TimeoutError } from '../../../shared/errors';
import type { Bounds, UiStates } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import type { AxClient } from './ax-client';
import { isMissing } from './ax-errors';
import type { JsValue } from './cf';
import { LABELLED_ROLES } from '../../ui/infer-names';
import { SECURE_SUBROLE, TEXT_ROLES, TOGGLE_ROLES, capabilities, normalizeRole } from './roles';

/** Read in one AXUIElementCopyMultipleAttributeValues call per node, in this order. */
export const NODE_ATTRIBUTES = [
  'AXRole',
  'AXSubrole',
  'AXTitle',
  'AXDescription',
  'AXValue',
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
const SLOT = new Map<Attribute, number>(NODE_ATTRIBUTES.map((name, index) => [name, index]));

/** Children are paged this many at a time when the batch could not carry the whole list. */
export const CHILD_PAGE = 100;
/** Text read into the tree per field; ui_read gives the rest. */
export const MAX_TREE_TEXT = 4000;

/**
 * How a node is found again: the pid, child indices from the app element (the first into
 * AXWindows, the rest into AXChildren) and the AXRole it had. No AXUIElementRef outlives the
 * call that read it; actions re-resolve the path and check the role (resolve.ts).
 */
export interface MacRef {
  pid: number;
  path: number[];
  axRole: string;
}

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

  async walk(pid: number, element: Pointer, path: number[], limits: WalkLimits, isApp = false): Promise<RawNode<MacRef> | undefined> {
    return this.node(pid, element, path, 0, { left: limits.maxNodes, limits }, isApp);
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
   * The node's batch. Below the root, a batch that times out or fails (often a huge child
   * list) is retried without AXChildren, which are then paged; a node that still fails is
   * skipped so the rest of the tree survives. The root's failure is the caller's (TIMEOUT).
   */
  private async batch(pid: number, element: Pointer, depth: number, budget: Budget): Promise<{ values: Pointer; withChildren: boolean } | undefined> {
    try {
      return { values: await this.client.copyMultiple(element, this.nameArray(true), pid), withChildren: true };
    } catch (error) {
      if (depth === 0 || !skippable(error)) throw error;
      // A node can vanish while the tree is read: that node is skipped, not the walk.
      if (error instanceof NodeNotFoundError) return undefined;
    }
    try {
      return { values: await this.client.copyMultiple(element, this.nameArray(false), pid), withChildren: false };
    } catch (error) {
      // Each skipped timeout costs two messaging timeouts: an app that keeps not answering is hung, and the read says so.
      if (error instanceof TimeoutError && (budget.timeouts = (budget.timeouts ?? 0) + 1) >= MAX_SKIPPED_TIMEOUTS) throw error;
      if (skippable(error)) return undefined;
      throw error;
    }
  }

  private async node(pid: number, element: Pointer, path: number[], depth: number, budget: Budget, isApp: boolean): Promise<RawNode<MacRef> | undefined> {
    budget.limits.signal?.throwIfAborted();
    budget.left -= 1;
    const { cf } = this.client;
    const batch = await this.batch(pid, element, depth, budget);
    if (batch === undefined) return undefined;
    return cf.owned(batch.values, async (values) => {
      // AXChildren is the last name, so the other slots have the same index in both arrays.
      const slot = (name: Attribute): Pointer | null => cf.native.CFArrayGetValueAtIndex(values, SLOT.get(name) as number);
      const read = (name: Attribute): JsValue => cf.toJs(slot(name));
      const axRole = text(read('AXRole')) ?? '';
      const subrole = await this.subrole(pid, element, axRole, read('AXSubrole'));
      const node = this.describe(pid, path, read, axRole, subrole);
      if (node.name === '' && LABELLED_ROLES.has(node.role)) await this.nameFromTitleElement(pid, node, slot('AXTitleUIElement'));
      // Nothing under a secure field is read: its parts can carry the secret too.
      if (node.states.secret === true) return node;
      const walkChildren = async (items: Pointer[], offset: number): Promise<void> => {
        for (const [index, item] of items.entries()) {
          if (budget.left <= 0) return;
          const child = await this.node(pid, item, [...path, offset + index], depth + 1, budget, false);
          if (child !== undefined) (node.children ??= []).push(child);
        }
      };
      if (isApp) {
        const windows = await this.client.copy(element, 'AXWindows', pid);
        if (windows === undefined) return node;
        return cf.owned(windows, async (windows) => this.children(node, cf.arrayItems(windows), depth, budget, (items) => walkChildren(items, 0)));
      }
      const children = batch.withChildren ? slot('AXChildren') : null;
      if (children !== null && cf.typeOf(children) === cf.types.array) {
        return this.children(node, cf.arrayItems(children), depth, budget, (items) => walkChildren(items, 0));
      }
      // No list in the batch (left out, or an error: a huge list can time out as a whole): page through it instead.
      const failed = read('AXChildren');
      const paged = !batch.withChildren || (typeof failed === 'object' && 'axError' in failed && !isMissing(failed.axError));
      if (!paged) return node;
      try {
        await this.paged(node, element, pid, depth, budget, walkChildren);
      } catch (error) {
        if (depth === 0 || !skippable(error)) throw error;
      }
      return node;
    });
  }

  private async paged(
    node: RawNode<MacRef>,
    element: Pointer,
    pid: number,
    depth: number,
    budget: Budget,
    walk: (items: Pointer[], offset: number) => Promise<void>,
  ): Promise<void> {
    const { cf } = this.client;
    const count = await this.client.count(element, 'AXChildren', pid);
    if (count === 0) return;
    node.childCount = count;
    if (depth >= budget.limits.maxDepth) return;
    for (let start = 0; start < count && budget.left > 0; start += CHILD_PAGE) {
      const page = await this.client.copyRange(element, 'AXChildren', start, Math.min(CHILD_PAGE, count - start, budget.left), pid);
      if (page === undefined) break;
      await cf.owned(page, async (page) => walk(cf.arrayItems(page), start));
    }
    if ((node.children?.length ?? 0) >= count) delete node.childCount;
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

  private describe(pid: number, path: number[], read: (name: Attribute) => JsValue, axRole: string, subrole: string | undefined): RawNode<MacRef> {
    const role = normalizeRole(axRole, subrole);
    const secret = subrole === SECURE_SUBROLE || axRole === SECURE_SUBROLE;
    // A secure field's value slot is never decoded: it stays in the native array and is released with it.
    // Remaining gap: the batch still asks for AXValue, so the secret crosses into this process
    // (undecoded, inside the CFArray); splitting the batch would cost a second IPC per node.
    const raw = secret ? undefined : read('AXValue');
    const value = scalar(raw);
    const title = text(read('AXTitle')) ?? '';
    const description = text(read('AXDescription')) ?? '';
    const name = title || description || (role === 'label' && typeof value === 'string' ? value : '');
    const enabled = read('AXEnabled') !== false;
    const states: UiStates = { enabled, focused: read('AXFocused') === true };
    if (TOGGLE_ROLES.has(role) && typeof value === 'number') states.checked = value === 1;
    if (TEXT_ROLES.has(role) && axRole !== 'AXPopUpButton') states.editable = true;
    if (secret) states.secret = true;
    const bounds = boundsOf(read('AXPosition'), read('AXSize'));
    const node: RawNode<MacRef> = {
      ref: { pid, path, axRole },
      role,
      platformRole: subrole === undefined ? axRole : `${axRole}/${subrole}`,
      name,
      states,
      actions: capabilities(role, enabled),
    };
    if (value !== undefined && !(role === 'label' && value === name)) node.value = value;
    if (typeof raw === 'string' && raw.length > MAX_TREE_TEXT) node.valueTruncated = true;
    if (description !== '' && description !== name) node.description = description;
    const placeholder = secret ? undefined : text(read('AXPlaceholderValue'));
    if (placeholder !== undefined) node.placeholder = placeholder;
    if (bounds !== undefined) node.bounds = bounds;
    return node;
  }
}

/** Failures that cost one node, not the tree: it vanished, did not answer, or refused. */
function skippable(error: unknown): boolean {
  return error instanceof NodeNotFoundError || error instanceof TimeoutError || (error instanceof DeskpilotError && error.code === 'ACTION_FAILED');
}

function text(value: JsValue): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function scalar(value: JsValue): string | number | undefined {
  if (typeof value === 'string') return value.length > MAX_TREE_TEXT ? value.slice(0, MAX_TREE_TEXT) : value;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

function boundsOf(position: JsValue, size: JsValue): Bounds | undefined {
  if (typeof position !== 'object' || typeof size !== 'object' || !('x' in position) || !('width' in size)) return undefined;
  return { x: position.x, y: position.y, width: size.width, height: size.height };
}
