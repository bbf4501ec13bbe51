import { DeskpilotError, NodeNotFoundError, ProcessExitedError, ValidationError, serializeError } from '../../shared/errors';
import {
  DEFAULT_SCROLL_AMOUNT,
  DEFAULT_SETTLE_MS,
  parseUiActionRequest,
  type ActionMethod,
  type UiActionRequest,
  type UiActionResult,
} from '../../shared/ui-action';
import type { UiNode } from '../../shared/ui-node';
import { systemClock, type Clock } from '../clock';
import type { Platform, Point, TreeOptions } from '../platform/types';
import { diffNodes, subtreeDigest } from '../ui/diff';
import { buildTree, type BuiltTree } from '../ui/ids';
import { redactSecrets } from '../ui/redact';
import { indexTree, shallow, type IndexedNode } from '../ui/tree-index';
import { DRAG_STEP_MS, interpolate } from './geometry';
import { ensureFrontmost } from './key-target';
import { notFoundError, refind, type Remembered } from './locate';
import { rereadNode } from './reread';
import { visiblePoint, type TargetTree } from './targeting';
import { resolveModifiers } from './modifiers';

export interface EngineOptions {
  platform: Platform;
  clock?: Clock;
}

/** How many nodes the engine remembers across trees, to explain ids that went away. */
const MEMORY_LIMIT = 20_000;

interface Resolved extends TargetTree {
  target: IndexedNode | undefined;
  destination: IndexedNode | undefined;
}

/**
 * The observe-act-verify engine: validate → resolve → snapshot → execute → settle → verify.
 * Accessibility-native first, synthetic input as the fallback, and `method` says which ran.
 */
export class ActionEngine {
  private readonly platform: Platform;
  private readonly clock: Clock;
  private readonly memory = new Map<string, Remembered>();

  constructor(options: EngineOptions) {
    this.platform = options.platform;
    this.clock = options.clock ?? systemClock;
  }

  /** Reads an app's tree with stable ids. Secret values are dropped here as a second lock. */
  async observe(pid: number, options: TreeOptions = {}): Promise<BuiltTree> {
    const raw = await this.platform.accessibility.getTree(pid, options);
    const built = buildTree(raw);
    const root = redactSecrets(built.root);
    this.remember(pid, root);
    return { root, refs: built.refs, salted: built.salted };
  }

  /**
   * Runs one ui_action. A malformed request throws ValidationError before anything runs;
   * every other failure comes back as `success: false` with a typed error, so the caller
   * (a model, usually) can read it and try again. Aborting rejects, and nothing acts after.
   */
  async run(pid: number, input: unknown, signal?: AbortSignal): Promise<UiActionResult> {
    const request = parseUiActionRequest(input);
    // Set once something was sent to the app: a result for an action that never ran claims no method.
    let method: ActionMethod | undefined;
    let nodeBefore: UiNode | null = null;
    try {
      signal?.throwIfAborted();
      const resolved = await this.resolve(pid, request);
      const subject = resolved.destination ?? resolved.target;
      nodeBefore = subject === undefined ? null : shallow(subject.node);
      signal?.throwIfAborted();
      if (!(await this.platform.apps.isAlive(pid))) throw new ProcessExitedError(pid);
      method = request.action === 'set_value' || request.action === 'click' ? 'accessibility' : 'input';
      method = await this.execute(pid, request, resolved, signal);
      const driver = method === 'input' ? this.platform.input.lastDriver : undefined;
      await this.clock.sleep(request.settleMs ?? DEFAULT_SETTLE_MS, signal);
      const result = await this.verify(pid, request, resolved, method);
      return driver === undefined ? result : { ...result, driver };
    } catch (error) {
      if (signal?.aborted || error instanceof ValidationError) throw error;
      return {
        success: false,
        ...(method === undefined ? {} : { method }),
        nodeBefore,
        nodeAfter: null,
        changed: false,
        changes: [],
        error: serializeError(error),
      };
    }
  }

  private async resolve(pid: number, request: UiActionRequest): Promise<Resolved> {
    // What the ids named when last seen, taken before observe() overwrites the memory.
    const lastSeen = (id: string | undefined): Remembered | undefined => (id === undefined ? undefined : this.memory.get(`${pid}:${id}`));
    const targetSeen = lastSeen(request.id);
    const destinationSeen = request.action === 'drag' ? lastSeen(request.toId) : undefined;
    // Bounds are read only for the nodes synthetic input needs (visiblePoint), not for the whole tree.
    const tree = await this.observe(pid, { bounds: 'none' });
    const index = indexTree(tree.root);
    const lookup = (id: string | undefined): IndexedNode | undefined => {
      if (id === undefined) return undefined;
      const entry = index.get(id);
      if (entry === undefined) throw notFoundError(tree.root, id, this.memory.get(`${pid}:${id}`), pid);
      this.checkSameNode(pid, id, entry.node, targetSeen);
      return entry;
    };
    const target = lookup(request.id);
    let destination: IndexedNode | undefined;
    if (request.action === 'drag') {
      destination = index.get(request.toId);
      if (destination !== undefined) this.checkSameNode(pid, request.toId, destination.node, destinationSeen);
      if (destination === undefined) {
        const reason = notFoundError(tree.root, request.toId, this.memory.get(`${pid}:${request.toId}`), pid);
        throw new DeskpilotError('DRAG_TARGET_NOT_FOUND', `drag destination node not found: ${reason.message}`, {
          ...(reason.data === undefined ? {} : { data: reason.data }),
        });
      }
    }
    // Synthetic input for this request is checked to land on this app's window (targeting.ts).
    return { tree, index, target, destination, owner: { pid, apps: this.platform.apps } };
  }

  private async execute(pid: number, request: UiActionRequest, resolved: Resolved, signal?: AbortSignal): Promise<ActionMethod> {
    const { accessibility, input } = this.platform;
    const node = resolved.target?.node;
    const ref = node === undefined ? undefined : resolved.tree.refs.get(node.id);
    switch (request.action) {
      case 'click': {
        const target = node as UiNode;
        if (await accessibility.press(ref, target)) return 'accessibility';
        await input.click(await visiblePoint(accessibility, resolved, target));
        return 'input';
      }
      case 'set_value':
        await accessibility.setValue(ref, node as UiNode, request.value);
        return 'accessibility';
      case 'type': {
        // Accessibility first where the backend has a path: no key event, no raise (issue 32).
        if (await accessibility.typeText?.(ref, node as UiNode, request.text)) return 'accessibility';
        // Text no key can type is inserted through accessibility, which needs no keyboard focus.
        const keyboard = input.canType?.(request.text) !== false;
        if (keyboard) await ensureFrontmost(this.platform.apps, pid, 'type', signal);
        await this.focus(resolved, node as UiNode, 'caret');
        signal?.throwIfAborted();
        if (!keyboard) {
          if (await accessibility.insertText?.(ref, node as UiNode, request.text)) return 'accessibility';
          throw new DeskpilotError(
            'ACTION_FAILED',
            'this text has characters the keyboard cannot type, and the element does not accept inserted text; try set_value',
          );
        }
        await input.typeText(request.text);
        return 'input';
      }
      case 'key': {
        const modifiers = resolveModifiers(request.modifiers ?? [], this.platform.name);
        // A key with an accessible meaning (a default button, a menu shortcut) needs no key event (issue 32).
        if (await accessibility.keyAction?.(pid, request.key, modifiers, ref, node)) return 'accessibility';
        // The app comes to the front before the element is focused: activating a window may move focus inside it.
        await ensureFrontmost(this.platform.apps, pid, 'key', signal);
        if (node !== undefined) await this.focus(resolved, node, 'keep');
        signal?.throwIfAborted();
        await input.pressKey(request.key, modifiers, pid);
        return 'input';
      }
      case 'scroll':
        await input.scroll(await visiblePoint(accessibility, resolved, node as UiNode), request.direction ?? 'down', request.amount ?? DEFAULT_SCROLL_AMOUNT);
        return 'input';
      case 'drag':
        await this.drag(
          await visiblePoint(accessibility, resolved, node as UiNode),
          await visiblePoint(accessibility, resolved, (resolved.destination as IndexedNode).node),
          signal,
        );
        return 'input';
    }
  }

  /**
   * Focus through accessibility when the node allows it, else a click at its centre.
   * 'keep' leaves a focused node alone, so a selection made by the last key survives;
   * 'caret' lets the backend place the caret for typing (a selection is still kept, so
   * "ctrl+a, then type" replaces the text as it does for a person).
   */
  private async focus(resolved: Resolved, node: UiNode, mode: 'keep' | 'caret'): Promise<void> {
    if (node.states.focused && mode === 'keep') return;
    const { accessibility, input } = this.platform;
    if (!(await accessibility.focus(resolved.tree.refs.get(node.id), node)) && !node.states.focused) {
      await input.click(await visiblePoint(accessibility, resolved, node));
    }
  }

  /** mouseDown at the source, 10 moves 16 ms apart (frameworks ignore jumps), mouseUp at the target. */
  private async drag(from: Point, to: Point, signal?: AbortSignal): Promise<void> {
    const { input } = this.platform;
    await input.moveMouse(from);
    await input.mouseDown();
    try {
      for (const point of interpolate(from, to)) {
        await this.clock.sleep(DRAG_STEP_MS, signal);
        await input.moveMouse(point);
      }
    } finally {
      // The button must come up even after an abort, or the user's mouse stays held down.
      await input.mouseUp();
    }
  }

  private async verify(pid: number, request: UiActionRequest, resolved: Resolved, method: ActionMethod): Promise<UiActionResult> {
    // A drop shows on the destination, so that is the node a drag verifies.
    const before = request.action === 'drag' ? resolved.destination : resolved.target;
    const result = (nodeAfter: UiNode | undefined, changes: string[]): UiActionResult => ({
      success: true,
      method,
      nodeBefore: before === undefined ? null : shallow(before.node),
      nodeAfter: nodeAfter === undefined ? null : shallow(nodeAfter),
      changed: changes.length > 0,
      changes,
    });
    try {
      // Re-reading just the node is enough when it changed, or when its own change is all that matters.
      const reread = before === undefined ? undefined : await rereadNode(this.platform.accessibility, resolved.tree, before);
      if (before !== undefined && reread !== undefined) {
        const changes = diffNodes(before.node, reread);
        if (changes.length > 0 || (request.action !== 'click' && request.action !== 'key')) return result(reread, changes);
      }
      const after = await this.observe(pid, { bounds: 'none', fresh: true });
      const found = before === undefined ? undefined : refind(after.root, before);
      const changes = before === undefined ? [] : found === undefined ? ['the node is gone from the tree'] : diffNodes(before.node, found);
      // A click or key often shows its effect elsewhere (a dialog opens); the node alone would say "no change".
      if (changes.length === 0 && (request.action === 'click' || request.action === 'key') && subtreeDigest(resolved.tree.root) !== subtreeDigest(after.root)) {
        changes.push('the app changed elsewhere');
      }
      return result(found, changes);
    } catch (error) {
      // An action can end its app (a Quit button): that is a change, not a failure.
      if (!(error instanceof ProcessExitedError)) throw error;
      return result(undefined, ['the process exited']);
    }
  }

  /**
   * An id hashes the node's role and name, so the same id with another role or name is a hash
   * collision with a different node (five letters make that rare, not impossible).
   * Acting on it would act on the wrong node silently, so the model must read the tree again;
   * the old meaning stays remembered, so a blind retry of the same call is refused too.
   */
  private checkSameNode(pid: number, id: string, node: UiNode, seen: Remembered | undefined): void {
    if (seen === undefined || (seen.role === node.role && seen.name === node.name)) return;
    this.memory.set(`${pid}:${id}`, seen);
    throw new NodeNotFoundError(
      `${id} now names ${node.role} "${node.name}", not the ${seen.role} "${seen.name}" it named before; read the tree again for the current id`,
      { data: { id, candidates: [] } },
    );
  }

  private remember(pid: number, root: UiNode): void {
    const stack = [root];
    while (stack.length > 0) {
      const node = stack.pop() as UiNode;
      const key = `${pid}:${node.id}`;
      this.memory.delete(key);
      this.memory.set(key, { role: node.role, name: node.name });
      stack.push(...(node.children ?? []));
    }
    // Maps iterate in insertion order, so the first keys are the least recently seen.
    for (const key of this.memory.keys()) {
      if (this.memory.size <= MEMORY_LIMIT) break;
      this.memory.delete(key);
    }
  }
}
