import type { Pointer } from '../../../../native/macos';
import { NodeNotFoundError, ProcessExitedError } from '../../../shared/errors';
import type { MenuShortcut } from '../types';
import type { AxClient } from './ax-client';
import { flag, type JsValue } from './cf';
import { menuItemShortcut } from './menu-keys';

/** Read in one AXUIElementCopyMultipleAttributeValues call per menu element, in this order. */
export const MENU_ATTRIBUTES = [
  'AXRole',
  'AXTitle',
  'AXEnabled',
  'AXMenuItemCmdChar',
  'AXMenuItemCmdModifiers',
  'AXMenuItemCmdVirtualKey',
  'AXMenuItemCmdGlyph',
  'AXChildren',
] as const;

type Attribute = (typeof MENU_ATTRIBUTES)[number];
const SLOT = new Map<Attribute, number>(MENU_ATTRIBUTES.map((name, index) => [name, index]));

/** Menu bar → bar item → menu → item → submenu → item …: deeper menus are rare and rarely have shortcuts. */
const MAX_DEPTH = 8;
/** Elements read per app at most: a menu bar of a few hundred items, with room to spare. */
const MAX_ELEMENTS = 2000;
/** How long a read is reused. AppKit updates enabled states as the app's state changes, so they are refreshed now and then. */
export const MENU_CACHE_MS = 30_000;

/** A shortcut, and where its item is: child indices from the menu bar down (AXChildren at each step). */
export interface MenuEntry {
  shortcut: MenuShortcut;
  at: number[];
}

interface Walk {
  pid: number;
  names: Pointer;
  left: number;
  found: MenuEntry[];
  signal: AbortSignal | undefined;
}

/**
 * Menu key equivalents of an app, from its AXMenuBar (the tree read walks AXWindows and
 * never pays for the menu bar). AppKit exposes closed menus, so one batched read per menu
 * element finds them all; the result is kept per app for MENU_CACHE_MS.
 */
export class MenuShortcutReader {
  private readonly cache = new Map<number, { at: number; entries: MenuEntry[] }>();

  constructor(
    private readonly client: AxClient,
    private readonly now: () => number = Date.now,
  ) {}

  async read(pid: number, signal?: AbortSignal): Promise<MenuShortcut[]> {
    return (await this.entries(pid, signal)).map((entry) => entry.shortcut);
  }

  /** The shortcuts with where their items are, from the cache while it is fresh. */
  async entries(pid: number, signal?: AbortSignal): Promise<MenuEntry[]> {
    const cached = this.cache.get(pid);
    if (cached !== undefined && this.now() - cached.at < MENU_CACHE_MS) return cached.entries;
    if (!this.client.isAlive(pid)) throw new ProcessExitedError(pid);
    const { cf } = this.client;
    const entries = await cf.owned(this.client.application(pid), async (app) => {
      const bar = await this.client.copy(app, 'AXMenuBar', pid);
      if (bar === undefined) return [];
      return cf.owned(bar, (bar) =>
        cf.owned(cf.createArray(MENU_ATTRIBUTES.map((name) => cf.name(name))), async (names) => {
          const walk: Walk = { pid, names, left: MAX_ELEMENTS, found: [], signal };
          await this.visit(walk, bar, [], [], 0);
          return walk.found;
        }),
      );
    });
    for (const [key, entry] of this.cache) if (this.now() - entry.at >= MENU_CACHE_MS) this.cache.delete(key);
    this.cache.set(pid, { at: this.now(), entries });
    return entries;
  }

  /** Forgets an app's menus: after a press that found its item gone or renamed, they are read again. */
  forget(pid: number): void {
    this.cache.delete(pid);
  }

  private async visit(walk: Walk, element: Pointer, path: string[], position: number[], depth: number): Promise<void> {
    walk.signal?.throwIfAborted();
    walk.left -= 1;
    const { cf } = this.client;
    let values: Pointer;
    try {
      values = await this.client.copyMultiple(element, walk.names, walk.pid);
    } catch (error) {
      // An item can vanish while the menu is read (a Recent list changing); a hung app still fails the read.
      if (depth > 0 && error instanceof NodeNotFoundError) return;
      throw error;
    }
    await cf.owned(values, async (values) => {
      // Bounds-checked (cf.slots): an answer may hold fewer slots than names asked, and reading past its end is undefined behaviour.
      const at = cf.slots(values);
      const slot = (name: Attribute): Pointer | null => at(SLOT.get(name) as number);
      const read = (name: Attribute): JsValue => cf.toJs(slot(name));
      const role = read('AXRole');
      const title = read('AXTitle');
      const name = typeof title === 'string' ? title.trim() : '';
      if (role === 'AXMenuItem' && name !== '') {
        const shortcut = menuItemShortcut({
          char: read('AXMenuItemCmdChar'),
          modifiers: read('AXMenuItemCmdModifiers'),
          virtualKey: read('AXMenuItemCmdVirtualKey'),
          glyph: read('AXMenuItemCmdGlyph'),
        });
        if (shortcut !== undefined) {
          walk.found.push({ shortcut: { name, shortcut, ...(path.length === 0 ? {} : { path }), enabled: flag(read('AXEnabled')) !== false }, at: position });
        }
      }
      const children = slot('AXChildren');
      if (depth >= MAX_DEPTH || children === null || cf.typeOf(children) !== cf.types.array) return;
      // A bar item or an item with a submenu names the menu below it; the AXMenu itself has no title.
      const below = (role === 'AXMenuBarItem' || role === 'AXMenuItem') && name !== '' ? [...path, name] : path;
      // Children are borrowed from `values`, which stays alive until they are all read.
      for (const [index, child] of cf.arrayItems(children).entries()) {
        if (walk.left <= 0) return;
        await this.visit(walk, child, below, [...position, index], depth + 1);
      }
    });
  }
}
