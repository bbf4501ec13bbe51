import { DeskpilotError, NodeNotFoundError, NotSettableError, ProcessExitedError, ValidationError, serializeError } from '../../shared/errors';
import {
  DEFAULT_SCROLL_AMOUNT,
  DEFAULT_SETTLE_MS,
  parseUiActionRequest,
  type ActionMethod,
  type UiActionRequest,
  type UiActionResult,
} from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import { systemClock, type Clock } from '../clock';
import { MAX_TYPED_KEYS } from '../platform/keymap';
import type { Platform, Point, TreeOptions } from '../platform/types';
import { buildTree, type BuiltTree } from '../ui/ids';
import { readOutline } from '../platform/outline-read';
import { redactSecrets } from '../ui/redact';
import { indexTree, shallow, type IndexedNode } from '../ui/tree-index';
import { accessibleClick, accessibleKey, type Route } from './accessible-route';
import { DRAG_STEP_MS, interpolate } from './geometry';
import { guardInput } from './input-guard';
import { ensureFrontmost } from './key-target';
import { notFoundError, type Remembered } from './locate';
import { SETTLE_BOUND_MS, waitForEffect } from './settle';
import { visiblePoint, type TargetTree } from './targeting';
import { resolveModifiers } from './modifiers';
import { lookOnce, type VerifyContext } from './verify';
import { checkTypedLength, replaceInWindow, typeAndWait, typeInWindow } from './window-typing';
import { EffectWatch, approvedOnce, foundAgain } from './vanished';

/**
 * What a step that needs synthetic input says before it runs, for a user who asked to be asked:
 * exactly the input it will send, so an approval judges that input and not the tool call around it.
 */
export interface InputRequest {
  pid: number;
  /** 'click', 'keys', 'scroll', 'drag', or 'open-menu' (an accessible click whose menu then holds the keyboard). */
  via: string;
  action: UiActionRequest['action'];
  /** The element the input lands on (a drag's source), as the app names it. */
  target?: { id: string; role: string; name: string; secret: boolean };
  /** Text typed, the key combo pressed, a scroll's direction or a drag's destination name. */
  value?: string;
}

export interface EngineOptions {
  platform: Platform;
  clock?: Clock;
  /**
   * Called before synthetic input takes the user's pointer or keyboard ("Never take my pointer
   * or keyboard"): resolve to go ahead, reject (with a typed error) to refuse the step.
   */
  askBeforeInput?: (request: InputRequest) => Promise<void>;
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
  private readonly watch: EffectWatch;
  /** The engine's clock: helpers that wait between their own looks (choose-option.ts) wait by it too. */
  readonly clock: Clock;
  private readonly memory = new Map<string, Remembered>();
  private readonly askBeforeInput: EngineOptions['askBeforeInput'];
  /** Looks taken after actions, in all: tests and benches count polls with it. */
  looks = 0;
  /** Actions tried a second time after their element's object vanished before anything reached the app (vanished.ts). */
  retriedVanished = 0;

  constructor(options: EngineOptions) {
    // Input and window calls go through the watch, which counts them for the retry rule (vanished.ts).
    this.watch = new EffectWatch(options.platform);
    this.platform = this.watch.platform;
    this.clock = options.clock ?? systemClock;
    this.askBeforeInput = options.askBeforeInput;
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
   * Reads only what `maxReads` nodes hold, the outline first (platform/outline-read.ts), for the
   * compact tree: its time follows the budget, not the page. `rootId` is read under first; ids
   * are those a whole read gives. Undefined where the platform reads this app whole (or cannot
   * read on demand), or the read did not meet `rootId`: the caller then uses observe().
   */
  async observeOutline(
    pid: number,
    options: { maxReads: number; maxTokens?: number; rootId?: string; signal?: AbortSignal },
  ): Promise<(BuiltTree & { subject: UiNode }) | undefined> {
    const read = await readOutline(this.platform.accessibility, pid, {
      maxReads: options.maxReads,
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.rootId === undefined ? {} : { targetId: options.rootId }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (read === undefined || (options.rootId !== undefined && read.target === undefined)) return undefined;
    const built = buildTree(read.root);
    const root = redactSecrets(built.root);
    this.remember(pid, root);
    const subject = options.rootId === undefined ? root : findById(root, options.rootId);
    return subject === undefined ? undefined : { root, refs: built.refs, salted: built.salted, subject };
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
    // Set when synthetic input moved the pointer or the active window: a step that fails after that still took the user's devices.
    const devices = { taken: false };
    try {
      signal?.throwIfAborted();
      let resolved = await this.resolve(pid, request);
      const subject = resolved.destination ?? resolved.target;
      nodeBefore = subject === undefined ? null : shallow(subject.node);
      signal?.throwIfAborted();
      if (!(await this.platform.apps.isAlive(pid))) throw new ProcessExitedError(pid);
      method = request.action === 'set_value' || request.action === 'click' ? 'accessibility' : 'input';
      const tries: Tries = { devices, ask: approvedOnce(this.askBeforeInput) };
      let outcome = await this.attempt(pid, request, resolved, method, tries, signal);
      if ('vanished' in outcome) {
        // Its object vanished before anything reached the app: the same request (same id, action and
        // arguments, as approved) once more on the element's new object, never on another element.
        resolved = await this.resolveAgain(pid, resolved, outcome.vanished, signal);
        const again = resolved.destination ?? resolved.target;
        nodeBefore = again === undefined ? null : shallow(again.node);
        signal?.throwIfAborted();
        this.retriedVanished += 1;
        outcome = await this.attempt(pid, request, resolved, method, tries, signal, false);
      }
      if ('result' in outcome) return outcome.result;
      if ('vanished' in outcome) throw outcome.vanished;
      const { route } = outcome;
      method = route.method;
      const driver = method === 'input' ? this.platform.input.lastDriver : undefined;
      const result = await this.settle(pid, request, resolved, method, signal);
      return { ...result, via: route.via, ...(route.interrupted === true ? { interrupted: true } : {}), ...(driver === undefined ? {} : { driver }) };
    } catch (error) {
      if (signal?.aborted || error instanceof ValidationError) throw error;
      // A step refused before its input was sent ran nothing, so it claims no method.
      const refused = error instanceof DeskpilotError && error.data?.['reason'] === 'keep-devices';
      return {
        success: false,
        ...(method === undefined || refused ? {} : { method }),
        ...(devices.taken && !refused ? { method: 'input' as const, interrupted: true } : {}),
        nodeBefore,
        nodeAfter: null,
        changed: false,
        changes: [],
        error: serializeError(error),
      };
    }
  }

  /**
   * One try at carrying out the request: its route, or the result of a click whose window closed
   * though the call failed, or (`mayRetry`) the error of an element whose object vanished before
   * anything reached the app (EffectWatch.nothingReached draws that line).
   */
  private async attempt(
    pid: number,
    request: UiActionRequest,
    resolved: Resolved,
    method: ActionMethod,
    tries: Tries,
    signal: AbortSignal | undefined,
    mayRetry = true,
  ): Promise<{ route: Route } | { result: UiActionResult } | { vanished: unknown }> {
    const mark = this.watch.mark();
    try {
      return { route: await this.execute(pid, request, resolved, tries, signal) };
    } catch (error) {
      if (mayRetry && signal?.aborted !== true && this.watch.nothingReached(mark, error)) return { vanished: error };
      // A button that closes its dialog or ends its app can take the answer with it: the call
      // fails though the click worked. What the app shows now decides, never the failed reply.
      const gone = signal?.aborted !== true && request.action === 'click' ? await this.closedAnyway(pid, request, resolved, method) : undefined;
      if (gone === undefined) throw error;
      return { result: gone };
    }
  }

  /** A fresh read after the target's object vanished, the request's ids found again as they were (vanished.ts). */
  private async resolveAgain(pid: number, before: Resolved, cause: unknown, signal?: AbortSignal): Promise<Resolved> {
    const tree = await this.observe(pid, { bounds: 'none', fresh: true, ...(signal === undefined ? {} : { signal }) });
    const index = indexTree(tree.root);
    const target = before.target === undefined ? undefined : foundAgain(index, tree.root, before.target, pid, cause);
    const destination = before.destination === undefined ? undefined : foundAgain(index, tree.root, before.destination, pid, cause, true);
    return { tree, index, target, destination, owner: { pid, apps: this.platform.apps } };
  }

  /** Looks for the action's effect by events and polling, up to a bound (see settle.ts). */
  private settle(pid: number, request: UiActionRequest, resolved: Resolved, method: ActionMethod, signal?: AbortSignal): Promise<UiActionResult> {
    const { accessibility } = this.platform;
    const context: VerifyContext = { accessibility, observe: (options) => this.observe(pid, options), request, resolved, method };
    const nextEvent = accessibility.nextEvent?.bind(accessibility);
    return waitForEffect({
      clock: this.clock,
      firstLookMs: request.settleMs ?? DEFAULT_SETTLE_MS,
      boundMs: SETTLE_BOUND_MS,
      look: () => lookOnce(context),
      ...(nextEvent === undefined ? {} : { nextEvent: (eventSignal: AbortSignal) => nextEvent(pid, eventSignal) }),
      ...(signal === undefined ? {} : { signal }),
      onLook: () => (this.looks += 1),
    });
  }

  /** After a failed click: the result when the node's window closed or the app exited, else undefined. */
  private async closedAnyway(pid: number, request: UiActionRequest, resolved: Resolved, method: ActionMethod): Promise<UiActionResult | undefined> {
    try {
      const context: VerifyContext = {
        accessibility: this.platform.accessibility,
        observe: (options) => this.observe(pid, options),
        request,
        resolved,
        method,
      };
      const { value } = await lookOnce(context);
      return value.success && value.outcome === 'closed' ? value : undefined;
    } catch {
      return undefined;
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

  private async execute(pid: number, request: UiActionRequest, resolved: Resolved, tries: Tries, signal?: AbortSignal): Promise<Route> {
    const { accessibility, input } = this.platform;
    const node = resolved.target?.node;
    const ref = node === undefined ? undefined : resolved.tree.refs.get(node.id);
    const synthetic = (via: string, work: () => Promise<void>, placed?: Point): Promise<Route> =>
      this.synthetic(inputRequest(pid, via, request, node, resolved.destination?.node), work, placed, tries, signal);
    switch (request.action) {
      case 'click': {
        const target = node as UiNode;
        // An opening menu's popup grabs the keyboard until it closes, so the user's keys go to it:
        // put to the user first like any input step, and reported as taking the keyboard.
        const opens = opensMenu(target);
        if (opens) await tries.ask(inputRequest(pid, 'open-menu', request, node, undefined));
        signal?.throwIfAborted();
        const native = await accessibleClick(accessibility, resolved, target);
        if (native !== undefined) return opens ? { ...native, interrupted: true } : native;
        const point = await visiblePoint(accessibility, resolved, target);
        return synthetic('click', () => input.click(point), point);
      }
      case 'set_value':
        try {
          await accessibility.setValue(ref, node as UiNode, request.value);
        } catch (error) {
          if (!(error instanceof NotSettableError)) throw error;
          // What is left sends the value as keys (to the window, or typed into a cell).
          checkTypedLength(String(request.value), 'this element takes its value only as keys, so set a shorter one');
          // A web field without EditableText (Chromium) takes its new text as keys sent to its window alone.
          const replaced =
            node?.role === 'cell' ? undefined : await replaceInWindow(this.platform, this.clock, pid, ref, node as UiNode, String(request.value), signal);
          if (replaced !== undefined) return replaced;
          if (node?.role !== 'cell' || input.canType?.(String(request.value)) === false) throw error;
          // A sheet cell takes no text through accessibility (LibreOffice gives it no EditableText):
          // it takes it as from a person, typed over while the cell is selected and committed by Return.
          const cell = node;
          return synthetic('keys', async () => {
            await ensureFrontmost(this.platform.apps, pid, 'type', signal);
            await this.focus(resolved, cell, 'caret');
            signal?.throwIfAborted();
            await input.typeText(`${String(request.value)}\n`, signal);
          });
        }
        return { method: 'accessibility', via: 'set-value' };
      case 'type': {
        const target = node as UiNode;
        // Accessibility first: inserted text takes neither the keyboard nor the focus from the user.
        if (await accessibility.insertText?.(ref, target, request.text)) return { method: 'accessibility', via: 'insert-text' };
        checkTypedLength(request.text, `type it in parts of at most ${MAX_TYPED_KEYS} characters`);
        // Next, keys sent to the app's window alone: still neither the user's keyboard nor their focus.
        const sent = await typeInWindow(this.platform, this.clock, pid, ref, target, request.text, signal);
        if (sent !== undefined) return sent;
        if (input.canType?.(request.text) === false) {
          throw new DeskpilotError(
            'ACTION_FAILED',
            'this text has characters the keyboard cannot type, and the element does not accept inserted text; try set_value',
          );
        }
        const keys = (): Promise<Route> =>
          synthetic('keys', async () => {
            await ensureFrontmost(this.platform.apps, pid, 'type', signal);
            await this.focus(resolved, target, 'caret');
            signal?.throwIfAborted();
            await input.typeText(request.text, signal);
          });
        // Waited for after the user's devices are given back: the keys were sent, the app still takes them.
        return typeAndWait(this.platform, this.clock, ref, target, request.text, keys, signal);
      }
      case 'key': {
        const modifiers = resolveModifiers(request.modifiers ?? [], this.platform.primaryModifier);
        const native = await accessibleKey(accessibility, resolved, { pid, key: request.key, modifiers, platform: this.platform.name }, signal);
        if (native !== undefined) return native;
        return synthetic('keys', async () => {
          // The app comes to the front before the element is focused: activating a window may move focus inside it.
          await ensureFrontmost(this.platform.apps, pid, 'key', signal);
          if (node !== undefined) await this.focus(resolved, node, 'keep');
          signal?.throwIfAborted();
          await input.pressKey(request.key, modifiers, pid);
        });
      }
      case 'scroll': {
        const point = await visiblePoint(accessibility, resolved, node as UiNode);
        return synthetic('scroll', () => input.scroll(point, request.direction ?? 'down', request.amount ?? DEFAULT_SCROLL_AMOUNT), point);
      }
      case 'drag': {
        const from = await visiblePoint(accessibility, resolved, node as UiNode);
        const to = await visiblePoint(accessibility, resolved, (resolved.destination as IndexedNode).node);
        return synthetic('drag', () => this.drag(from, to, signal), to);
      }
    }
  }

  /**
   * Synthetic input, the path that takes the user's devices: asked for first when the user
   * said never to take them, and the pointer and active window put back afterwards (input-guard.ts).
   */
  private async synthetic(asked: InputRequest, work: () => Promise<void>, placed: Point | undefined, tries: Tries, signal?: AbortSignal): Promise<Route> {
    await tries.ask(asked);
    signal?.throwIfAborted();
    await guardInput(this.platform, asked.pid, work, { placed, sleep: (ms) => this.clock.sleep(ms), devices: tries.devices });
    return { method: 'input', via: asked.via, interrupted: true };
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
    if ((await accessibility.focus(resolved.tree.refs.get(node.id), node)) || node.states.focused) return;
    // A click on a menu would open it (or run a menu item) rather than focus it: its keys go as they are.
    if (MENU_ROLES.has(node.role)) return;
    // A click on a button or a check box presses it: focusing it that way would act twice (a
    // space after it toggles the box back). GTK 4 refuses every focus request, so this is real.
    if (PRESSED_BY_CLICK.has(node.role)) {
      throw new DeskpilotError(
        'ACTION_FAILED',
        `the app would not focus this ${node.role} without pressing it, so the key was not sent; click it, or send the key without an id to the focused element`,
        { data: { reason: 'focus-would-press', role: node.role } },
      );
    }
    await input.click(await visiblePoint(accessibility, resolved, node));
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

  /**
   * Nodes a search found without a tree read (AT-SPI Collection): their ids carry no salt, so
   * an action on one checks, as for any id seen before, that it meets the same role and name.
   */
  noteFound(pid: number, nodes: readonly UiNode[]): void {
    for (const node of nodes) {
      const key = `${pid}:${node.id}`;
      this.memory.delete(key);
      this.memory.set(key, { role: node.role, name: node.name });
    }
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

/** What one run of an action shares between its tries: the user's devices, and the input the user approved. */
interface Tries {
  devices: { taken: boolean };
  ask: (request: InputRequest) => Promise<void>;
}

const MENU_ROLES = new Set<Role>(['menu', 'menuitem']);
/** Controls a click acts on, not merely focuses. */
const PRESSED_BY_CLICK = new Set<Role>(['button', 'togglebutton', 'checkbox', 'radio', 'switch', 'link', 'tab']);

/** A menu that a click opens (not one open already, which the click closes). */
function opensMenu(node: UiNode): boolean {
  return node.role === 'menu' && node.states.expanded !== true;
}

/** The node with this id in a tree, bounded by the tree's size. */
function findById(root: UiNode, id: string): UiNode | undefined {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as UiNode;
    if (node.id === id) return node;
    stack.push(...(node.children ?? []));
  }
  return undefined;
}

/** The input a step is about to send, described for the user who is asked about it. */
function inputRequest(pid: number, via: string, request: UiActionRequest, node: UiNode | undefined, destination: UiNode | undefined): InputRequest {
  const target = node === undefined ? undefined : { id: node.id, role: node.role, name: node.name, secret: node.states.secret === true };
  const value =
    request.action === 'type'
      ? request.text
      : request.action === 'key'
        ? [...(request.modifiers ?? []), request.key].join('+')
        : request.action === 'scroll'
          ? (request.direction ?? 'down')
          : request.action === 'drag'
            ? destination?.name
            : undefined;
  return { pid, via, action: request.action, ...(target === undefined ? {} : { target }), ...(value === undefined ? {} : { value }) };
}
