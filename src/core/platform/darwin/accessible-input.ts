import type { Pointer } from '../../../../native/macos';
import { normalizeKeyName } from '../../../shared/keys';
import type { UiNode } from '../../../shared/ui-node';
import { formatShortcut } from '../shortcut-format';
import type { Modifier } from '../types';
import type { AxClient } from './ax-client';
import { AXError } from './ax-errors';
import { AXValueType, flag } from './cf';
import type { MenuEntry, MenuShortcutReader } from './menu-shortcuts';
import { secureNow } from './resolve';
import { TEXT_ROLES } from './roles';
import type { MacRef } from './tree-walk';
import { findWindow } from './window-key';

/** Runs work on a node's live element (MacAccessibility.element: it also records the input target). */
type WithElement = <T>(target: MacRef, work: (element: Pointer) => Promise<T>) => Promise<T>;

/**
 * Typing and keys through what they mean to the app, before any synthetic event (issue 32,
 * point 4): nothing takes the user's pointer or keyboard, and no window is raised.
 * - Text goes in at the caret by setting AXSelectedText, which replaces the selection (inserts
 *   when it is empty): NSTextView and NSTextField answer it (AppKit's
 *   accessibilitySetSelectedText:), as AXorcist's and Peekaboo's set-value paths use it.
 * - Return is the focused control's AXConfirm (AXSwift: "simulate pressing Return in the
 *   UIElement, such as a text field"; lahfir/agent-desktop tries AXConfirm before AXPress), else
 *   AXPress on its window's AXDefaultButton; Escape is AXCancel, else the AXCancelButton.
 * - A command-key shortcut presses its menu item (AXPress), found from the app's menu bar as
 *   System Events' "click menu item" finds it, with no menu opened.
 * Each answers false where the app offers no such path, and the engine falls back to CGEvent.
 */
export class AccessibleInput {
  constructor(
    private readonly client: AxClient,
    private readonly menus: MenuShortcutReader,
    private readonly element: WithElement,
  ) {}

  /** Never for a secure field: its text is neither read nor written through accessibility. */
  async typeText(ref: unknown, node: UiNode, text: string): Promise<boolean> {
    const target = ref as MacRef;
    if (text === '' || node.states.secret === true || !TEXT_ROLES.has(node.role)) return false;
    const { cf, native } = this.client;
    return this.element(target, async (element) => {
      if (await secureNow(this.client, element, target.pid)) return false;
      if (!(await this.client.settable(element, 'AXSelectedText', target.pid))) return false;
      // Focus inside the app, which does not activate it: a field that was not being edited
      // has no selection to replace, and gets its caret at the end, as focus() gives it.
      if (!node.states.focused) {
        if ((await this.client.set(element, 'AXFocused', native.kCFBooleanTrue)) !== AXError.Success) return false;
        const length = await characterCount(this.client, element, target.pid);
        const range = length === undefined ? null : native.AXValueCreateRange(AXValueType.CFRange, { location: length, length: 0 });
        if (range !== null) await cf.owned(range, (range) => this.client.set(element, 'AXSelectedTextRange', range));
      }
      const before = await characterCount(this.client, element, target.pid);
      const selected = await this.selectedLength(element, target.pid);
      const code = await cf.owned(cf.createString(text), (string) => this.client.set(element, 'AXSelectedText', string));
      if (code !== AXError.Success) {
        if (code === AXError.APIDisabled || code === AXError.CannotComplete)
          throw this.client.fail(code, 'AXUIElementSetAttributeValue(AXSelectedText)', target.pid);
        return false;
      }
      // An app can claim the attribute and ignore the set: then nothing changed, and keys may type it.
      // Any change at all means the text went in (or partly): typing it again would duplicate it.
      if (before === undefined || selected === undefined) return true;
      const after = await characterCount(this.client, element, target.pid);
      return !(after === before && text.length !== selected);
    });
  }

  /** `ref`/`node`: the element the key is for, when the request names one; else the app's focused element. */
  async keyAction(pid: number, key: string, modifiers: readonly Modifier[], ref?: unknown, node?: UiNode): Promise<boolean> {
    const name = normalizeKeyName(key);
    if (name === undefined) return false;
    if (modifiers.includes('meta')) {
      const shortcut = formatShortcut(modifiers, name, 'darwin');
      if (shortcut === undefined) return false;
      // A menu command acts on the app's focused element: the one the request names must be it.
      if (ref !== undefined && node?.states.focused !== true && !(await this.focusInApp(ref as MacRef))) return false;
      return this.menuItem(pid, shortcut);
    }
    if (modifiers.length > 0) return false;
    // Return in a text area is a new line, not a confirmation.
    if (name === 'return' && node?.role !== 'textarea') return this.dialogKey(pid, ref as MacRef | undefined, 'AXConfirm', 'AXDefaultButton');
    if (name === 'escape') return this.dialogKey(pid, ref as MacRef | undefined, 'AXCancel', 'AXCancelButton');
    return false;
  }

  /** AXFocused inside its app, which does not activate the app (nor raise the window). */
  private async focusInApp(target: MacRef): Promise<boolean> {
    return this.element(target, async (element) => (await this.client.set(element, 'AXFocused', this.client.native.kCFBooleanTrue)) === AXError.Success);
  }

  /** The control's own action (AXConfirm, AXCancel), else its window's button for the key. */
  private async dialogKey(pid: number, target: MacRef | undefined, action: string, button: string): Promise<boolean> {
    const { cf } = this.client;
    return cf.owned(this.client.application(pid), async (app) => {
      const focused = target === undefined ? await this.client.copy(app, 'AXFocusedUIElement', pid) : undefined;
      const work = async (element: Pointer | undefined): Promise<boolean> => {
        if (element !== undefined) {
          const role = await this.copyText(element, 'AXRole', pid);
          if (role === 'AXTextArea') return false;
          if ((await this.client.actionNames(element, pid)).includes(action)) return this.performed(element, action, pid);
        }
        const window = await this.windowOf(app, pid, element, target);
        if (window === undefined) return false;
        return cf.owned(window, async (window) => {
          const pressable = await this.client.copy(window, button, pid);
          if (pressable === undefined) return false;
          return cf.owned(pressable, (pressable) => this.pressIfEnabled(pressable, pid));
        });
      };
      if (target !== undefined) return this.element(target, work);
      return focused === undefined ? work(undefined) : cf.owned(focused, work);
    });
  }

  /** The window to look for a default or cancel button in (owned): the ref's own, the element's, or the app's focused one. */
  private async windowOf(app: Pointer, pid: number, element: Pointer | undefined, target: MacRef | undefined): Promise<Pointer | undefined> {
    if (target?.window !== undefined) return findWindow(this.client, app, pid, target.window).catch(() => undefined);
    if (element !== undefined) {
      const window = await this.client.copy(element, 'AXWindow', pid);
      if (window !== undefined) return window;
    }
    return this.client.copy(app, 'AXFocusedWindow', pid);
  }

  /** The enabled menu item with this shortcut, pressed; false when there is none (the keys then go to the app). */
  private async menuItem(pid: number, shortcut: string): Promise<boolean> {
    const entry = (await this.menus.entries(pid)).find((candidate) => candidate.shortcut.shortcut === shortcut);
    if (entry === undefined) return false;
    const { cf } = this.client;
    const pressed = await cf.owned(this.client.application(pid), async (app) => {
      const item = await this.menuElement(app, pid, entry);
      return item === undefined ? undefined : cf.owned(item, (item) => this.pressIfEnabled(item, pid));
    });
    // The menus changed since they were read (an item gone or renamed): read them again next time.
    if (pressed === undefined) this.menus.forget(pid);
    return pressed === true;
  }

  /** The item at the entry's position (owned), if it still has the entry's title. */
  private async menuElement(app: Pointer, pid: number, entry: MenuEntry): Promise<Pointer | undefined> {
    const { cf } = this.client;
    let current = await this.client.copy(app, 'AXMenuBar', pid);
    for (const index of entry.at) {
      if (current === undefined) return undefined;
      const page = await cf.owned(current, (current) => this.client.copyRange(current, 'AXChildren', index, 1, pid));
      // The item is borrowed from the page: retained before the page is released.
      current =
        page === undefined
          ? undefined
          : cf.ownedSync(page, (page) => {
              const item = cf.slots(page)(0);
              return item === null ? undefined : cf.native.CFRetain(item);
            });
    }
    if (current === undefined) return undefined;
    const title = await this.copyText(current, 'AXTitle', pid);
    if (title?.trim() === entry.shortcut.name) return current;
    cf.release(current);
    return undefined;
  }

  /** AXPress on an element that is enabled now (a cached menu can be out of date). */
  private async pressIfEnabled(element: Pointer, pid: number): Promise<boolean> {
    const { cf } = this.client;
    const enabled = await this.client.copy(element, 'AXEnabled', pid);
    if (enabled !== undefined && cf.ownedSync(enabled, (enabled) => flag(cf.toJs(enabled))) === false) return false;
    return this.performed(element, 'AXPress', pid);
  }

  private async performed(element: Pointer, action: string, pid: number): Promise<boolean> {
    const code = await this.client.perform(element, action);
    if (code === AXError.Success) return true;
    // AXUIElement.h: CannotComplete after an action can mean it is still running (a sheet opened).
    if (code === AXError.CannotComplete && this.client.isAlive(pid)) return true;
    if (code === AXError.APIDisabled) throw this.client.fail(code, `AXUIElementPerformAction(${action})`, pid);
    return false;
  }

  private async copyText(element: Pointer, attribute: string, pid: number): Promise<string | undefined> {
    const { cf } = this.client;
    const value = await this.client.copy(element, attribute, pid).catch(() => undefined);
    const text = value === undefined ? undefined : cf.ownedSync(value, (value) => cf.toJs(value));
    return typeof text === 'string' ? text : undefined;
  }

  /** UTF-16 length of the selected text, measured without reading it into this process. */
  private async selectedLength(element: Pointer, pid: number): Promise<number | undefined> {
    const { cf } = this.client;
    const value = await this.client.copy(element, 'AXSelectedText', pid).catch(() => undefined);
    if (value === undefined) return 0;
    return cf.ownedSync(value, (value) => (cf.typeOf(value) === cf.types.string ? Number(cf.native.CFStringGetLength(value)) : undefined));
  }
}

/** UTF-16 length of a text element: AXNumberOfCharacters, else the length of AXValue, measured without decoding it. */
export async function characterCount(client: AxClient, element: Pointer, pid: number): Promise<number | undefined> {
  const { cf } = client;
  const count = await client.copy(element, 'AXNumberOfCharacters', pid).catch(() => undefined);
  const counted = count === undefined ? undefined : cf.ownedSync(count, (count) => cf.toJs(count));
  if (typeof counted === 'number') return counted;
  const value = await client.copy(element, 'AXValue', pid).catch(() => undefined);
  if (value === undefined) return undefined;
  return cf.ownedSync(value, (value) => (cf.typeOf(value) === cf.types.string ? Number(cf.native.CFStringGetLength(value)) : undefined));
}
