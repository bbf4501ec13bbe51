import { IFACE, ROLE, STATE } from '../../../../native/linux/atspi';
import { NotSettableError, isObjectGone } from '../../../shared/errors';
import type { Bounds, UiNode } from '../../../shared/ui-node';
import type { AccessibilityBackend, MenuShortcut, QuickMatch, QuickQuery, TreeOptions } from '../types';
import { collectionFind } from './collection-find';
import { mirrorFind } from './mirror-find';
import type { RawNode } from '../../ui/ids';
import type { AppDirectory, AppEntry } from './apps';
import { pressActionIndex } from './action-names';
import { DbusCallError } from '../../../../native/linux/dbus';
import { mapDbusError, type AtspiClient, type AtspiRef } from './client';
import { actError, countingClient } from './gone-object';
import { AppEvents } from './app-events';
import { DEFAULT_MIRROR_OPTIONS, MirrorStore, type MirrorStats } from './mirror-store';
import { mirrorReader } from './mirror-reader';
import { ShortcutReader } from './shortcuts';
import { hasState } from './states';
import { TreeCache } from './tree-cache';
import { fetchTree, readExtents, readText, type CacheRows } from './tree-fetch';
import { EXTENTS_TRIES } from './tree-values';
import { originsByTitle, popoverShift, screenWindows } from './window-origin';
import { crashDuringRead } from './read-crash';
import { processAgeMs, settledFirstRead } from './first-read';
import { chromiumAdvice, isChromiumShell } from './chromium-advice';
import { FULL_READ_MAX_NODES } from '../../ui/read-cut';

/** Every read is whole up to this cap, and says where it stopped past it (the root's `cut`): a cut tree must never pass for the app. */
const DEFAULT_MAX_NODES = FULL_READ_MAX_NODES;
/**
 * Asks of a Gecko node's extents, beyond readExtents' own, while they are (-1, -1, -1, -1): Gecko
 * answers so until a fresh page's bounds arrive (readExtents alone waits ~80 ms, and Firefox took
 * up to 136 ms at load 5), and a click taken at its word found the box "not on screen".
 */
const LATE_EXTENTS_ASKS = 10;
/** Asks for a Gecko node's actions while it answers none, and the pause between (see pressIndex). */
const LATE_ACTION_ASKS = 10;
const LATE_ACTION_WAIT_MS = 40;
/** AT-SPI's IS_DEFAULT state: not in the tree's states, read for the few buttons Return may mean. */
const STATE_IS_DEFAULT = 39;
/** How often, and how far apart, a focus asked for by an action is looked for. */
const FOCUS_LOOKS = 8;
const FOCUS_LOOK_MS = 25;
const INSERT_CHECKS = 3;
const INSERT_CHECK_MS = 30;
const NOT_SUPPORTED = 'org.freedesktop.DBus.Error.NotSupported';

const DEFAULT_MAX_DEPTH = 64;
/** Nodes a patched read may read again (values, walked states) for a search to go to the mirror rather than Collection. */
const MIRROR_SEARCH_MAX_CHECKS = 300;

/**
 * AT-SPI2 accessibility: the tree from a mirror patched by the app's events (or a full read
 * through the cache and a parallel walk), native actions through D-Bus.
 */
export class AtspiAccessibility implements AccessibilityBackend {
  /** Trees with bounds: bounds move without events, so these are dropped on any event. */
  private readonly cache = new TreeCache();
  private readonly mirrors: MirrorStore;
  private readonly shortcutReader: ShortcutReader;
  private readonly events: AppEvents;
  /** Apps this process has read once: later reads need not wait for a half-built tree to settle. */
  private readonly readBefore = new Set<string>();

  /** The client for calls on an element (press, focus, extents, …): each one sent is counted in actCalls. */
  private readonly acting: AtspiClient;
  private calls = 0;

  /** Waits between asks for late answers (tests pass one that counts instead of waiting). */
  private readonly pause: (ms: number) => Promise<void>;

  constructor(
    private readonly client: AtspiClient,
    private readonly apps: AppDirectory,
    options: { pause?: (ms: number) => Promise<void> } = {},
  ) {
    this.pause = options.pause ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.acting = countingClient(client, () => (this.calls += 1));
    client.onTreeEvent((event) => this.cache.invalidate(event.bus));
    this.events = new AppEvents(client);
    this.mirrors = new MirrorStore(client, { ...DEFAULT_MIRROR_OPTIONS, maxNodes: DEFAULT_MAX_NODES, maxDepth: DEFAULT_MAX_DEPTH }, (bus) =>
      this.cache.invalidate(bus),
    );
    client.onClose(() => this.mirrors.close());
    this.shortcutReader = new ShortcutReader(client);
  }

  /** How often reads were patched or read whole, and why the mirror fell back: for tests and benches. */
  get mirrorStats(): MirrorStats {
    return this.mirrors.stats;
  }

  /** Calls sent on elements so far (AccessibilityBackend.actCalls): tree reads and searches are not counted. */
  get actCalls(): number {
    return this.calls;
  }

  /** Subscribes to an app's events and keeps it observed while it is read (dropped when idle, as a mirror is). */
  observe(bus: string): Promise<void> {
    return this.mirrors.touch(bus);
  }

  async getTree(pid: number, options: TreeOptions = {}): Promise<RawNode> {
    const app = await this.apps.get(pid);
    const tree = await this.readTree(pid, app, options);
    // Say how to get the real tree of a Chromium or Electron app that shows only its windows.
    return isChromiumShell(app.bridge, tree) ? { ...tree, description: chromiumAdvice(pid) } : tree;
  }

  private async readTree(pid: number, app: AppEntry, options: TreeOptions): Promise<RawNode> {
    // Extents cost a call a node and matter only where input lands, so by default they are read on demand.
    const bounds = options.bounds ?? 'none';
    const limits = { maxNodes: options.maxNodes ?? DEFAULT_MAX_NODES, maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH };
    const fetch = (onRows?: (rows: CacheRows) => void) => fetchTree(this.client, app, { bounds, ...limits, ...(onRows === undefined ? {} : { onRows }) });
    try {
      if (bounds === 'none' && limits.maxNodes === DEFAULT_MAX_NODES && limits.maxDepth === DEFAULT_MAX_DEPTH) {
        const read = (fresh: boolean) => this.mirrors.read(app.bus, mirrorReader(this.client, app), fetch, fresh);
        if (this.readBefore.has(app.bus)) return await read(options.fresh ?? false);
        // Each CLI call is a new process, so its one read is a first read: it must not catch the app half-built.
        const tree = await settledFirstRead(() => read(true), {
          lazyToolkit: app.gtk4,
          ageMs: processAgeMs(pid),
          eventCount: () => this.events.count(app.bus),
        });
        this.readBefore.add(app.bus);
        return tree;
      }
      // The cache is only sound while the app's events reach it.
      await this.mirrors.touch(app.bus);
      return await this.cache.get(app.bus, bounds, () => fetch(), options.fresh);
    } catch (error) {
      throw (await crashDuringRead(error, app)) ?? mapDbusError(error, pid);
    }
  }

  /** Menu accelerators from the (usually cached) tree: one GetKeyBinding per menu item, the first time only. */
  async shortcuts(pid: number, signal?: AbortSignal): Promise<MenuShortcut[]> {
    const tree = await this.getTree(pid, signal === undefined ? {} : { signal });
    try {
      return await this.shortcutReader.read(tree as RawNode<AtspiRef>, signal);
    } catch (error) {
      throw mapDbusError(error, pid);
    }
  }

  /** Re-reads one node and what is under it, without the rest of the app. */
  async readSubtree(ref: unknown, node: UiNode, maxNodes: number): Promise<RawNode> {
    const target = ref as AtspiRef;
    const app = await this.apps.get(target.pid);
    const subtree = { path: target.path, ...(target.window === undefined ? {} : { window: target.window }) };
    try {
      const raw = await fetchTree(this.client, app, { bounds: 'none', maxNodes, maxDepth: DEFAULT_MAX_DEPTH }, subtree);
      // A sheet cell's headers come from its table (table-range.ts), which a read of the cell alone does not see.
      return node.role === 'cell' && (raw.description ?? '') === '' && node.description !== undefined ? { ...raw, description: node.description } : raw;
    } catch (error) {
      throw (await crashDuringRead(error, app)) ?? mapDbusError(error, target.pid);
    }
  }

  /**
   * Role and name searches through Collection.GetMatches where the app's bridge has it (Gecko,
   * Chromium); undefined elsewhere. Where the app's mirror serves its tree for a few calls, the
   * same search runs over it in memory (mirror-find.ts), which beats at-spi2-atk's GetMatches
   * (it walks every node: seconds on a 20,000-node page). A mirror that re-reads many values or
   * states on each read costs as much as a whole read, and Collection answers there.
   */
  async findNodes(pid: number, query: QuickQuery): Promise<QuickMatch[] | undefined> {
    const app = await this.apps.get(pid);
    if (!app.bridge.collection) return undefined;
    // A patched read of a settled mirror, searched in memory as Collection would answer: no whole tree built, no call per node.
    if (this.readBefore.has(app.bus) && this.mirrors.serves(app.bus, MIRROR_SEARCH_MAX_CHECKS))
      return mirrorFind(await this.getTree(pid, { fresh: true }), query);
    try {
      return await collectionFind(this.client, app, query);
    } catch (error) {
      throw (await crashDuringRead(error, app)) ?? mapDbusError(error, pid);
    }
  }

  async press(ref: unknown): Promise<boolean> {
    const target = ref as AtspiRef;
    if (!target.interfaces.includes(IFACE.action)) return false;
    const { bridge } = await this.apps.get(target.pid);
    return this.guard(target, async () => {
      const index = await this.pressIndex([target.bus, target.path], bridge.lateFacts ? LATE_ACTION_ASKS : 1);
      if (index < 0) return false;
      const [done] = await this.acting.call([target.bus, target.path], IFACE.action, 'DoAction', 'i', [index]);
      return Boolean(done);
    });
  }

  /**
   * The press action's index, asked up to `asks` times while the node answers no actions at all.
   * Gecko (Firefox 153 ESR, measured) sends a page's actions, like its names and extents, only
   * once a client first asks for them: that first NActions answered 0 on a fresh Firefox, and 1
   * some 30 ms later. Taken at its word, the click fell to synthetic input, whose extents were
   * still (-1, -1, -1, -1): "not on screen". A node that answers actions but no press is final.
   */
  private async pressIndex(object: [string, string], asks: number): Promise<number> {
    for (let ask = 1; ; ask += 1) {
      const index = await pressActionIndex(this.acting, object);
      if (index >= 0 || ask >= asks) return index;
      if (Number(await this.acting.property(object, IFACE.action, 'NActions')) > 0) return index;
      await this.pause(LATE_ACTION_WAIT_MS);
    }
  }

  /** Selects a list item or tab through its container's Selection, by the item's own index in its parent. */
  async select(ref: unknown, _node: UiNode, containerRef: unknown): Promise<boolean> {
    const target = ref as AtspiRef;
    const container = containerRef as AtspiRef | undefined;
    if (container === undefined || !container.interfaces.includes(IFACE.selection)) return false;
    return this.guard(target, async () => {
      const [index] = await this.acting.call([target.bus, target.path], IFACE.accessible, 'GetIndexInParent');
      if (typeof index !== 'number' || index < 0) return false;
      const [done] = await this.acting.call([container.bus, container.path], IFACE.selection, 'SelectChild', 'i', [index]);
      return Boolean(done);
    });
  }

  async isDefault(ref: unknown): Promise<boolean> {
    const target = ref as AtspiRef;
    return this.guard(target, async () => {
      const [bits] = await this.acting.call([target.bus, target.path], IFACE.accessible, 'GetState');
      return hasState(bits as number[], STATE_IS_DEFAULT);
    });
  }

  /** The app's next event, for the engine's wait for an action's effect. */
  async nextEvent(pid: number, signal: AbortSignal): Promise<void> {
    const app = await this.apps.get(pid);
    return this.events.next(app.bus, signal);
  }

  async setValue(ref: unknown, _node: UiNode, value: string | number): Promise<void> {
    const target = ref as AtspiRef;
    const hasValue = target.interfaces.includes(IFACE.value);
    const hasText = target.interfaces.includes(IFACE.editableText);
    const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
    await this.guard(target, async () => {
      if (hasValue && (typeof value === 'number' || !hasText) && Number.isFinite(number)) {
        await this.acting.setProperty([target.bus, target.path], IFACE.value, 'CurrentValue', 'd', number);
        return;
      }
      if (hasText) {
        const [done] = await this.acting.call([target.bus, target.path], IFACE.editableText, 'SetTextContents', 's', [String(value)]);
        if (done) return;
      }
      throw new NotSettableError();
    });
  }

  /**
   * GrabFocus, then the caret goes to the end so typing appends: GTK selects an entry's
   * whole text when it gains focus, and typing would replace it. A field that already had
   * focus and holds a selection keeps it, since the user (or the model) made it on purpose.
   */
  async focus(ref: unknown, node: UiNode): Promise<boolean> {
    const target = ref as AtspiRef;
    if (!target.interfaces.includes(IFACE.component)) return false;
    const object: [string, string] = [target.bus, target.path];
    return this.guard(target, async () => {
      const [focused] = node.states.focused ? [true] : await this.grabFocus(object);
      if (!focused || !target.interfaces.includes(IFACE.text) || target.role === ROLE.PASSWORD_TEXT) return Boolean(focused);
      if (node.states.focused && Number((await this.acting.call(object, IFACE.text, 'GetNSelections'))[0]) > 0) return true;
      const length = Number(await this.acting.property(object, IFACE.text, 'CharacterCount'));
      await this.acting.call(object, IFACE.text, 'SetCaretOffset', 'i', [length]);
      return true;
    });
  }

  /**
   * Focus without activating the window, for keys sent to the window alone. Chromium activates
   * its window on GrabFocus and on SetCaretOffset (measured on Chromium 156), but not on a text
   * field's default action ("activate"), which focuses it: that is used there, and the caret is
   * left for the keys to move, except in a field that was focused already with a selection
   * (typing replaces it, as for a person). Every other toolkit focuses as focus() does.
   */
  async focusInBackground(ref: unknown, node: UiNode): Promise<'caret-placed' | 'caret-unplaced' | false> {
    const target = ref as AtspiRef;
    const { bridge } = await this.apps.get(target.pid);
    if (bridge.kind !== 'chromium') return (await this.focus(ref, node)) ? 'caret-placed' : false;
    const object: [string, string] = [target.bus, target.path];
    return this.guard(target, async () => {
      const [bits] = await this.acting.call(object, IFACE.accessible, 'GetState');
      if (hasState(bits as number[], STATE.FOCUSED)) {
        const selected = target.interfaces.includes(IFACE.text) && Number((await this.acting.call(object, IFACE.text, 'GetNSelections'))[0]) > 0;
        return selected ? 'caret-placed' : 'caret-unplaced';
      }
      if (!target.interfaces.includes(IFACE.action)) return false;
      const index = await pressActionIndex(this.acting, object);
      if (index < 0 || !(await this.acting.call(object, IFACE.action, 'DoAction', 'i', [index]))[0]) return false;
      // The renderer carries the action out a moment later: the focus is looked for a few times.
      for (let look = 0; look < FOCUS_LOOKS; look += 1) {
        const [after] = await this.acting.call(object, IFACE.accessible, 'GetState');
        if (hasState(after as number[], STATE.FOCUSED)) return 'caret-unplaced';
        await new Promise((resolve) => setTimeout(resolve, FOCUS_LOOK_MS));
      }
      return false;
    });
  }

  /**
   * Component.GrabFocus; false where the toolkit does not offer it. GTK 4 (4.8) answers every
   * GrabFocus with org.freedesktop.DBus.Error.NotSupported: the caller then focuses another way
   * (the engine clicks the element, and says the user's devices were taken).
   */
  private async grabFocus(object: [string, string]): Promise<unknown[]> {
    try {
      return await this.acting.call(object, IFACE.component, 'GrabFocus');
    } catch (error) {
      if (error instanceof DbusCallError && error.errorName === NOT_SUPPORTED) return [false];
      throw error;
    }
  }

  /**
   * Inserts through EditableText, with no key events and no focus change, where typing would
   * put the text: in place of the selection of a focused field (after select-all, typing
   * replaces), else at the end (as focus() puts the caret there before keys). Password
   * fields are typed.
   */
  async insertText(ref: unknown, node: UiNode, text: string): Promise<boolean> {
    const target = ref as AtspiRef;
    if (!target.interfaces.includes(IFACE.editableText) || target.role === ROLE.PASSWORD_TEXT) return false;
    const object: [string, string] = [target.bus, target.path];
    return this.guard(target, async () => {
      let offset = 0;
      if (target.interfaces.includes(IFACE.text)) {
        offset = Number(await this.acting.property(object, IFACE.text, 'CharacterCount'));
        if (node.states.focused && Number((await this.acting.call(object, IFACE.text, 'GetNSelections'))[0]) > 0) {
          const [start, end] = (await this.acting.call(object, IFACE.text, 'GetSelection', 'i', [0])) as number[];
          if (start !== undefined && end !== undefined && end > start) {
            await this.acting.call(object, IFACE.editableText, 'DeleteText', 'ii', [start, end]);
            offset = start;
          }
        }
      }
      const before = target.interfaces.includes(IFACE.text) ? await this.characterCount(object) : undefined;
      // GTK reads the length in UTF-8 bytes; toolkits that count characters stop at the string's end anyway.
      const [done] = await this.acting.call(object, IFACE.editableText, 'InsertText', 'isi', [Math.max(0, offset || 0), text, Buffer.byteLength(text)]);
      if (!done || before === undefined) return Boolean(done);
      // Firefox ESR answers true and inserts nothing: only a text that grew counts, else the keys type it.
      return this.grew(object, before);
    });
  }

  private async characterCount(object: [string, string]): Promise<number> {
    return Number(await this.acting.property(object, IFACE.text, 'CharacterCount'));
  }

  /** Whether the text is longer than `before`, asked a few times: some toolkits update the count a moment later. */
  private async grew(object: [string, string], before: number): Promise<boolean> {
    for (let attempt = 0; attempt < INSERT_CHECKS; attempt += 1) {
      if ((await this.characterCount(object)) > before) return true;
      await new Promise((resolve) => setTimeout(resolve, INSERT_CHECK_MS));
    }
    return (await this.characterCount(object)) > before;
  }

  async readText(ref: unknown, _node: UiNode, maxChars: number): Promise<string> {
    const target = ref as AtspiRef;
    const { bridge } = await this.apps.get(target.pid);
    return this.guard(target, async () => (await readText(this.acting, [target.bus, target.path], maxChars, bridge)).replace(/\uFFFC/g, ''));
  }

  async bounds(ref: unknown): Promise<Bounds | undefined> {
    const target = ref as AtspiRef;
    if (!target.interfaces.includes(IFACE.component)) return undefined;
    const { bridge } = await this.apps.get(target.pid);
    return this.guard(target, async () => {
      const tries = bridge.lateFacts ? EXTENTS_TRIES + LATE_EXTENTS_ASKS : EXTENTS_TRIES;
      const extents = await readExtents(this.acting, [target.bus, target.path], tries, this.pause);
      if (extents === undefined || !target.gtk4 || target.window === undefined) return extents;
      const windows = await screenWindows();
      const origin = originsByTitle(windows).get(target.window);
      // Inside a popover, the popup window places it (GTK 4 counts from the widget the popover hangs from).
      const popover = origin === undefined || target.popover === undefined ? undefined : await readExtents(this.acting, [target.bus, target.popover]);
      const shift = (popover === undefined || origin === undefined ? undefined : popoverShift(windows, popover, origin)) ?? origin;
      return shift === undefined ? extents : { ...extents, x: extents.x + shift.x, y: extents.y + shift.y };
    });
  }

  private async guard<T>(target: AtspiRef, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const typed = await actError(this.client, target, error);
      // A node whose object is gone must not be served again from the mirror: its parent is read again on the next read.
      if (isObjectGone(typed)) {
        this.mirrors.objectGone(target.bus, target.path);
        this.cache.invalidate(target.bus);
      }
      throw typed;
    }
  }
}
