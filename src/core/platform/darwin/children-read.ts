import type { Pointer } from '../../../../native/macos';
import { NodeNotFoundError, ProcessExitedError } from '../../../shared/errors';
import type { RawNode } from '../../ui/ids';
import { nameFieldsFromLayout } from '../../ui/infer-names';
import type { AccessibilityBackend, ChildRequest } from '../types';
import type { AxClient } from './ax-client';
import type { ChromiumEnabler } from './electron';
import { resolveElement } from './resolve';
import type { MacRef, TreeWalker } from './tree-walk';

/** Elements kept per app between the calls of one outline read; past this a parent is found again by its path. */
const MAX_HELD = 2048;
/** The children of an AXScrollArea are where big lists are: batched without AXChildren, counted instead (tree-walk.ts). */
const LIST_PARENT = 'AXScrollArea';

const keyOf = (path: readonly number[]): string => path.join('.');

/**
 * AccessibilityBackend.readChildren over AX, so the compact tree reads breadth first by budget on
 * macOS too (platform/outline-read.ts). For each request: the parent's children by one ranged copy
 * of just the slice asked (AXUIElementCopyAttributeValues on AXWindows for the app, AXChildren
 * below; AXUIElement.h recommends it for big lists), then each child read by TreeWalker.readOne,
 * the whole walk's own code: one AXUIElementCopyMultipleAttributeValues per node (AXChildren in
 * it, for the count, except under a scroll area, where the count is asked instead), plus AXValue
 * for value roles that are not secret. Nodes, refs and names are therefore the whole read's.
 *
 * Between calls, the elements of the nodes returned with children are kept (retained), so the
 * next level starts from them instead of resolving each path again (one ranged copy per level).
 * A root request starts a new read: the app's kept elements are released then, and all of them
 * by dispose(). A parent that is gone reads as no children, as in the fake backend.
 *
 * Geometry names (a field named by the label next to it) are inferred among the siblings read
 * together; the whole read also looks at cousins, so a field labelled only by a cousin can get a
 * different name, and id, here.
 */
export class MacChildrenReader {
  private readonly held = new Map<number, Map<string, Pointer>>();

  constructor(
    private readonly client: AxClient,
    private readonly walker: TreeWalker,
    private readonly enabler: ChromiumEnabler,
  ) {}

  readonly read: NonNullable<AccessibilityBackend['readChildren']> = async (pid, requests, signal) => {
    if (!this.client.isAlive(pid)) throw new ProcessExitedError(pid);
    const shared: { timeouts?: number; signal?: AbortSignal } = signal === undefined ? {} : { signal };
    const answers: RawNode[][] = [];
    for (const request of requests) {
      signal?.throwIfAborted();
      answers.push(await this.readRequest(pid, request, shared));
    }
    return answers;
  };

  /** Releases every element kept. */
  dispose(): void {
    for (const pid of [...this.held.keys()]) this.forget(pid);
  }

  private async readRequest(pid: number, request: ChildRequest, shared: { timeouts?: number; signal?: AbortSignal }): Promise<RawNode[]> {
    const { cf } = this.client;
    if (request.ref === undefined) {
      this.forget(pid);
      const app = this.client.application(pid);
      this.keep(pid, [], app);
      await this.enabler.ensure(pid, app, shared.signal);
      const root = await this.walker.readOne(pid, app, [], { isApp: true }, shared);
      return root === undefined ? [] : [root];
    }
    const parent = request.ref as MacRef;
    if (request.count <= 0) return [];
    const element = await this.element(parent);
    if (element === undefined) return [];
    const page = await this.client.copyRange(element, parent.path.length === 0 ? 'AXWindows' : 'AXChildren', request.from, request.count, pid);
    if (page === undefined) return [];
    const nodes = await cf.owned(page, async (page) => {
      const read: RawNode<MacRef>[] = [];
      for (const [index, item] of cf.arrayItems(page).entries()) {
        const path = [...parent.path, request.from + index];
        const kind =
          parent.path.length === 0
            ? { isWindow: true }
            : { listLike: parent.axRole === LIST_PARENT, ...(parent.window === undefined ? {} : { window: parent.window }) };
        const node = await this.walker.readOne(pid, item, path, kind, shared);
        if (node === undefined) continue;
        // Borrowed from the page: retained to outlive it, for the request that reads its children.
        if ((node.childCount ?? 0) > 0 && node.states.secret !== true) this.keep(pid, path, cf.native.CFRetain(item));
        read.push(node);
      }
      return read;
    });
    // Labels beside an unnamed field name it, as the whole read does (its scope is one level wider).
    nameFieldsFromLayout({ role: 'group', name: '', children: [{ role: 'group', name: '', children: nodes }] });
    return nodes;
  }

  /** The parent's element: kept from the last level, else found again by its path (resolve.ts) and kept. */
  private async element(parent: MacRef): Promise<Pointer | undefined> {
    const kept = this.held.get(parent.pid)?.get(keyOf(parent.path));
    if (kept !== undefined) return kept;
    try {
      const element = await resolveElement(this.client, parent);
      this.keep(parent.pid, parent.path, element);
      return element;
    } catch (error) {
      if (error instanceof NodeNotFoundError) return undefined;
      throw error;
    }
  }

  /** Takes ownership of `element`: kept when there is room (a path kept already is replaced), else released at once. */
  private keep(pid: number, path: readonly number[], element: Pointer): void {
    let elements = this.held.get(pid);
    if (elements === undefined) this.held.set(pid, (elements = new Map()));
    const key = keyOf(path);
    const previous = elements.get(key);
    if (previous !== undefined) this.client.cf.release(previous);
    else if (elements.size >= MAX_HELD) {
      this.client.cf.release(element);
      return;
    }
    elements.set(key, element);
  }

  private forget(pid: number): void {
    for (const element of this.held.get(pid)?.values() ?? []) this.client.cf.release(element);
    this.held.delete(pid);
  }
}
