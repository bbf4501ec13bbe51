import { IFACE, ROLE } from '../../../../native/linux/atspi';
import { NotSettableError } from '../../../shared/errors';
import type { Bounds, UiNode } from '../../../shared/ui-node';
import type { AccessibilityBackend, MenuShortcut, TreeOptions } from '../types';
import type { RawNode } from '../../ui/ids';
import type { AppDirectory, AppEntry } from './apps';
import { mapDbusError, type AtspiClient, type AtspiRef } from './client';
import { DEFAULT_MIRROR_OPTIONS, MirrorStore, type MirrorStats } from './mirror-store';
import { mirrorReader } from './mirror-reader';
import { ShortcutReader } from './shortcuts';
import { TreeCache } from './tree-cache';
import { fetchTree, readExtents, readText, type CacheRows } from './tree-fetch';
import { windowOrigins } from './window-origin';
import { crashDuringRead } from './read-crash';
import { processAgeMs, settledFirstRead } from './first-read';
import { chromiumAdvice, isChromiumShell } from './chromium-advice';

/** Action names that mean "activate this", across GTK3 ("click"), GTK4 ("activate", "toggle") and others. */
const PRESS_ACTIONS = ['click', 'press', 'activate', 'toggle', 'jump', 'open', 'select'];
const DEFAULT_MAX_NODES = 5000;
const DEFAULT_MAX_DEPTH = 64;

/**
 * AT-SPI2 accessibility: the tree from a mirror patched by the app's events (or a full read
 * through the cache and a parallel walk), native actions through D-Bus.
 */
export class AtspiAccessibility implements AccessibilityBackend {
  /** Trees with bounds: bounds move without events, so these are dropped on any event. */
  private readonly cache = new TreeCache();
  private readonly mirrors: MirrorStore;
  private readonly shortcutReader: ShortcutReader;
  /** Apps this process has read once: later reads need not wait for a half-built tree to settle. */
  private readonly readBefore = new Set<string>();

  constructor(
    private readonly client: AtspiClient,
    private readonly apps: AppDirectory,
  ) {
    client.onTreeEvent((event) => this.cache.invalidate(event.bus));
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
        const tree = await settledFirstRead(() => read(true), { lazyToolkit: app.gtk4, ageMs: processAgeMs(pid) });
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
  async readSubtree(ref: unknown, _node: UiNode, maxNodes: number): Promise<RawNode> {
    const target = ref as AtspiRef;
    const app = await this.apps.get(target.pid);
    const subtree = { path: target.path, ...(target.window === undefined ? {} : { window: target.window }) };
    try {
      return await fetchTree(this.client, app, { bounds: 'none', maxNodes, maxDepth: DEFAULT_MAX_DEPTH }, subtree);
    } catch (error) {
      throw (await crashDuringRead(error, app)) ?? mapDbusError(error, target.pid);
    }
  }

  async press(ref: unknown): Promise<boolean> {
    const target = ref as AtspiRef;
    if (!target.interfaces.includes(IFACE.action)) return false;
    return this.guard(target, async () => {
      const [actions] = await this.client.call([target.bus, target.path], IFACE.action, 'GetActions');
      const names = (actions as [string, string, string][]).map(([name]) => name.toLowerCase());
      let index = names.findIndex((name) => PRESS_ACTIONS.includes(name));
      // Chromium names its one action "".
      if (index < 0 && names.length === 1 && names[0] === '') index = 0;
      if (index < 0) return false;
      const [done] = await this.client.call([target.bus, target.path], IFACE.action, 'DoAction', 'i', [index]);
      return Boolean(done);
    });
  }

  async setValue(ref: unknown, _node: UiNode, value: string | number): Promise<void> {
    const target = ref as AtspiRef;
    const hasValue = target.interfaces.includes(IFACE.value);
    const hasText = target.interfaces.includes(IFACE.editableText);
    const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
    await this.guard(target, async () => {
      if (hasValue && (typeof value === 'number' || !hasText) && Number.isFinite(number)) {
        await this.client.setProperty([target.bus, target.path], IFACE.value, 'CurrentValue', 'd', number);
        return;
      }
      if (hasText) {
        const [done] = await this.client.call([target.bus, target.path], IFACE.editableText, 'SetTextContents', 's', [String(value)]);
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
      const [focused] = node.states.focused ? [true] : await this.client.call(object, IFACE.component, 'GrabFocus');
      if (!focused || !target.interfaces.includes(IFACE.text) || target.role === ROLE.PASSWORD_TEXT) return Boolean(focused);
      if (node.states.focused && Number((await this.client.call(object, IFACE.text, 'GetNSelections'))[0]) > 0) return true;
      const length = Number(await this.client.property(object, IFACE.text, 'CharacterCount'));
      await this.client.call(object, IFACE.text, 'SetCaretOffset', 'i', [length]);
      return true;
    });
  }

  /** Inserts at the caret through EditableText: the path for text synthetic keys cannot type. */
  async insertText(ref: unknown, _node: UiNode, text: string): Promise<boolean> {
    const target = ref as AtspiRef;
    if (!target.interfaces.includes(IFACE.editableText) || target.role === ROLE.PASSWORD_TEXT) return false;
    return this.guard(target, async () => {
      const caret = target.interfaces.includes(IFACE.text) ? Number(await this.client.property([target.bus, target.path], IFACE.text, 'CaretOffset')) : 0;
      // GTK reads the length in UTF-8 bytes; toolkits that count characters stop at the string's end anyway.
      const [done] = await this.client.call([target.bus, target.path], IFACE.editableText, 'InsertText', 'isi', [
        Math.max(0, caret),
        text,
        Buffer.byteLength(text),
      ]);
      return Boolean(done);
    });
  }

  async readText(ref: unknown, _node: UiNode, maxChars: number): Promise<string> {
    const target = ref as AtspiRef;
    const { bridge } = await this.apps.get(target.pid);
    return this.guard(target, async () => (await readText(this.client, [target.bus, target.path], maxChars, bridge)).replace(/\uFFFC/g, ''));
  }

  async bounds(ref: unknown): Promise<Bounds | undefined> {
    const target = ref as AtspiRef;
    if (!target.interfaces.includes(IFACE.component)) return undefined;
    return this.guard(target, async () => {
      const extents = await readExtents(this.client, [target.bus, target.path]);
      if (extents === undefined || !target.gtk4 || target.window === undefined) return extents;
      const origin = (await windowOrigins()).get(target.window);
      return origin === undefined ? extents : { ...extents, x: extents.x + origin.x, y: extents.y + origin.y };
    });
  }

  private async guard<T>(target: AtspiRef, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw mapDbusError(error, target.pid);
    }
  }
}
