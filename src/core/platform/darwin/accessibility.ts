import type { Pointer } from '../../../../native/macos';
import { markNodeCap } from '../../ui/read-cut';
import { NodeNotFoundError, NotSettableError, ProcessExitedError } from '../../../shared/errors';
import type { Bounds, UiNode } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import { nameFieldsFromLayout } from '../../ui/infer-names';
import type { AccessibilityBackend, MenuShortcut, Modifier, TreeOptions } from '../types';
import { AccessibleInput, characterCount } from './accessible-input';
import type { AxClient } from './ax-client';
import { AXError, isMissing } from './ax-errors';
import { AXValueType, type JsValue } from './cf';
import type { ChromiumEnabler } from './electron';
import { MenuShortcutReader } from './menu-shortcuts';
import { secureNow, withElement } from './resolve';
import { TEXT_ROLES } from './roles';
import type { MacRef, TreeWalker } from './tree-walk';
import { raiseWindow } from './window-key';

const DEFAULT_MAX_NODES = 5000;
const DEFAULT_MAX_DEPTH = 64;
/** Codes with which an app refuses a value it cannot take: NOT_SETTABLE, with no input fallback. */
const REJECTED = new Set<number>([AXError.IllegalArgument, AXError.AttributeUnsupported, AXError.Failure, AXError.NotImplemented, AXError.NoValue]);

/**
 * macOS Accessibility (AX): trees by a batched walk, native actions on elements found
 * again from their path. Trees are always read fresh: AX has no cheap change signal here.
 */
export class MacAccessibility implements AccessibilityBackend {
  private readonly menus: MenuShortcutReader;
  private readonly accessible: AccessibleInput;

  constructor(
    private readonly client: AxClient,
    private readonly walker: TreeWalker,
    private readonly enabler: ChromiumEnabler,
    /**
     * Told the ref of each element resolved for an action (press, setValue, focus, bounds,
     * readSubtree), so input that carries no pid (the InputBackend interface passes one only to
     * pressKey) raises the app just acted on, and the window that holds that element. Tree
     * reads do not count: a read of another app must not redirect input.
     */
    private readonly onTarget: (ref: MacRef) => void = () => undefined,
  ) {
    this.menus = new MenuShortcutReader(client);
    this.accessible = new AccessibleInput(client, this.menus, (target, work) => this.element(target, work));
  }

  /** Text at the caret through AXSelectedText, tried before any key event (accessible-input.ts). */
  insertText(ref: unknown, node: UiNode, text: string): Promise<boolean> {
    return this.accessible.typeText(ref, node, text);
  }

  /** Return, Escape and menu shortcuts through what they mean to the app (accessible-input.ts). */
  keyAction(pid: number, key: string, modifiers: readonly Modifier[], ref?: unknown, node?: UiNode): Promise<boolean> {
    return this.accessible.keyAction(pid, key, modifiers, ref, node);
  }

  /** Menu key equivalents from the app's AXMenuBar, which the tree read leaves out. */
  shortcuts(pid: number, signal?: AbortSignal): Promise<MenuShortcut[]> {
    return this.menus.read(pid, signal);
  }

  async getTree(pid: number, options: TreeOptions = {}): Promise<RawNode> {
    if (!this.client.isAlive(pid)) throw new ProcessExitedError(pid);
    const limits = {
      maxNodes: options.maxNodes ?? DEFAULT_MAX_NODES,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    return this.client.cf.owned(this.client.application(pid), async (app) => {
      await this.enabler.ensure(pid, app, options.signal);
      const tree = await this.walker.walkApp(pid, app, limits);
      // Bounds come with every node here, so a field no label is tied to can be named by where it sits.
      nameFieldsFromLayout(tree);
      // The walk stops when its node budget is spent: say so on the root, so no reader takes the tree for the whole app.
      return markNodeCap(tree, limits.maxNodes);
    });
  }

  async readSubtree(ref: unknown, _node: UiNode, maxNodes: number): Promise<RawNode> {
    const target = ref as MacRef;
    return this.element(target, async (element) => {
      // The app root is walked as an app: its children are AXWindows, the index space its paths use.
      // Its role is known: a list is counted and paged from the start instead of risking a batch that times out.
      const limits = { maxNodes, maxDepth: DEFAULT_MAX_DEPTH };
      const node = await this.walker.walk(target.pid, element, target.path, limits, target.path.length === 0, target.axRole, target.window);
      if (node === undefined) throw new NodeNotFoundError('node not found: the element went away');
      return node;
    });
  }

  /** AXPress when the element lists it; false otherwise, so the engine clicks its centre. */
  async press(ref: unknown): Promise<boolean> {
    const target = ref as MacRef;
    return this.element(target, async (element) => {
      if (!(await this.client.actionNames(element, target.pid)).includes('AXPress')) return false;
      const code = await this.client.perform(element, 'AXPress');
      if (code === AXError.Success) return true;
      if (code === AXError.ActionUnsupported) return false;
      // AXUIElement.h: CannotComplete after an action can mean it is still running (a modal opened).
      if (code === AXError.CannotComplete && this.client.isAlive(target.pid)) return true;
      throw this.client.fail(code, 'AXUIElementPerformAction(AXPress)', target.pid);
    });
  }

  /** AXValue as a CFNumber (double) or a CFString; a number for a text field is sent as text. */
  async setValue(ref: unknown, node: UiNode, value: string | number): Promise<void> {
    const target = ref as MacRef;
    const { cf } = this.client;
    await this.element(target, async (element) => {
      if (!(await this.client.settable(element, 'AXValue', target.pid))) throw new NotSettableError();
      const number = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
      // An element whose value is text now (a stepper showing "12 pt") takes text, whatever the role.
      const textual = TEXT_ROLES.has(node.role) || typeof node.value === 'string';
      const numeric = !textual && Number.isFinite(number) && (typeof value === 'number' || typeof node.value === 'number');
      const created = numeric ? cf.createNumber(number) : cf.createString(String(value));
      const code = await cf.owned(created, (created) => this.client.set(element, 'AXValue', created));
      if (code === AXError.Success) return;
      if (REJECTED.has(code)) throw new NotSettableError(undefined, { data: { axError: code } });
      throw this.client.fail(code, 'AXUIElementSetAttributeValue(AXValue)', target.pid);
    });
  }

  /**
   * AXFocused=true, after the element's own window is made main and raised: keys go to the key
   * window, and the window raised on activation is the one of the previous action (issue 29,
   * point 6). A text field that was not focused gets its caret at the end, because AppKit
   * selects all text on focus and typing would replace it; a field that already had focus keeps
   * its selection, made on purpose.
   */
  async focus(ref: unknown, node: UiNode): Promise<boolean> {
    const target = ref as MacRef;
    const { cf, native } = this.client;
    const key = target.window;
    if (key !== undefined && !node.states.focused) {
      await cf.owned(this.client.application(target.pid), (app) => raiseWindow(this.client, app, target.pid, key));
    }
    return this.element(target, async (element) => {
      const code = await this.client.set(element, 'AXFocused', native.kCFBooleanTrue);
      if (code !== AXError.Success) {
        if (REJECTED.has(code) || isMissing(code)) return false;
        throw this.client.fail(code, 'AXUIElementSetAttributeValue(AXFocused)', target.pid);
      }
      if (!node.states.focused && TEXT_ROLES.has(node.role) && typeof node.value === 'string') {
        // The tree's value is cut at MAX_TREE_TEXT: the end is asked of the element itself.
        const length = await characterCount(this.client, element, target.pid);
        if (length === undefined) return true;
        const range = native.AXValueCreateRange(AXValueType.CFRange, { location: length, length: 0 });
        // Best effort: a field without a settable selection still has focus.
        if (range !== null) await cf.owned(range, (range) => this.client.set(element, 'AXSelectedTextRange', range));
      }
      return true;
    });
  }

  /** A text element's whole AXValue, up to maxChars: the tree keeps only its start. Never a secure field's. */
  async readText(ref: unknown, node: UiNode, maxChars: number): Promise<string> {
    const target = ref as MacRef;
    if (node.states.secret === true) return '';
    const { cf } = this.client;
    return this.element(target, async (element) => {
      if (await secureNow(this.client, element, target.pid)) return '';
      const value = await this.client.copy(element, 'AXValue', target.pid);
      const text = value === undefined ? undefined : cf.ownedSync(value, (owned) => cf.toJs(owned));
      return typeof text === 'string' ? text.slice(0, maxChars) : '';
    });
  }

  /** The node's live element for an action, recorded as the input target. */
  private element<T>(target: MacRef, work: (element: Pointer) => Promise<T>): Promise<T> {
    this.onTarget(target);
    return withElement(this.client, target, work);
  }

  async bounds(ref: unknown): Promise<Bounds | undefined> {
    const target = ref as MacRef;
    const { cf } = this.client;
    return this.element(target, async (element) => {
      const read = async (attribute: string): Promise<JsValue> => {
        const value = await this.client.copy(element, attribute, target.pid);
        return value === undefined ? undefined : cf.ownedSync(value, (value) => cf.toJs(value));
      };
      const position = await read('AXPosition');
      const size = await read('AXSize');
      if (typeof position !== 'object' || typeof size !== 'object' || !('x' in position) || !('width' in size)) return undefined;
      return { x: position.x, y: position.y, width: size.width, height: size.height };
    });
  }
}
