import type { ActionMethod } from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import { formatShortcut } from '../platform/shortcut-format';
import type { AccessibilityBackend, Modifier, PlatformName } from '../platform/types';
import type { IndexedNode } from '../ui/tree-index';
import type { TargetTree } from './targeting';

/** How an action was carried out: `method` for the contract, `via` for the detail. */
export interface Route {
  method: ActionMethod;
  via: string;
  /** Synthetic input took the user's pointer or keyboard. */
  interrupted?: boolean;
}

/** Items their container selects: a click on one means "select it". */
const SELECTABLE = new Set<Role>(['listitem', 'tab', 'treeitem', 'row', 'cell']);
/** Controls that Return or Space press when they have the focus. */
const PRESSABLE = new Set<Role>(['button', 'togglebutton', 'checkbox', 'radio', 'switch', 'link', 'menuitem']);
/** Button names that dismiss a dialog, as Escape does; compared trimmed, lowercase, without mnemonics. */
const CANCEL_NAMES = new Set(['cancel', 'close', 'no', "don't save", 'dismiss']);
const WINDOW_CANCEL_NAMES = new Set(['cancel']);
const DIALOG_ROLES = new Set<Role>(['dialog', 'window']);

function plainName(name: string): string {
  return name
    .replace(/_/g, '')
    .replace(/…|\.\.\.$/u, '')
    .trim()
    .toLowerCase();
}

function refOf(target: TargetTree, node: UiNode): unknown {
  return target.tree.refs.get(node.id);
}

/**
 * A click without synthetic input: the element's own action (press, activate, click), else
 * Selection on its container for list items and tabs. Undefined when neither applies.
 */
export async function accessibleClick(accessibility: AccessibilityBackend, target: TargetTree, node: UiNode): Promise<Route | undefined> {
  if (await accessibility.press(refOf(target, node), node)) return { method: 'accessibility', via: 'action' };
  if (!SELECTABLE.has(node.role) || accessibility.select === undefined) return undefined;
  const parentId = target.index.get(node.id)?.parentId;
  const container = parentId === undefined ? undefined : target.index.get(parentId)?.node;
  if (container === undefined) return undefined;
  return (await accessibility.select(refOf(target, node), node, refOf(target, container))) ? { method: 'accessibility', via: 'selection' } : undefined;
}

/** The node keys go to: the one named by the request, else the focused node of the tree. */
function keyTarget(target: TargetTree & { target: IndexedNode | undefined }): IndexedNode | undefined {
  const named = target.target;
  if (named !== undefined) return named;
  for (const entry of target.index.values()) if (entry.node.states.focused) return entry;
  return undefined;
}

function enclosingDialog(target: TargetTree, entry: IndexedNode): IndexedNode | undefined {
  for (
    let current: IndexedNode | undefined = entry;
    current !== undefined;
    current = current.parentId === undefined ? undefined : target.index.get(current.parentId)
  ) {
    if (DIALOG_ROLES.has(current.node.role)) return current;
  }
  return undefined;
}

/**
 * The button Escape means in a dialog. In a plain window (yad's and zenity's dialogs are
 * windows to AT-SPI) only "Cancel" counts: a client-side title bar has a "Close" button,
 * and Escape in a main window must never close it.
 */
function cancelButton(target: TargetTree, dialog: IndexedNode): UiNode | undefined {
  const names = dialog.node.role === 'dialog' ? CANCEL_NAMES : WINDOW_CANCEL_NAMES;
  for (const entry of target.index.values()) {
    const node = entry.node;
    if (node.role !== 'button' || !node.states.enabled || node.states.visible === false || !names.has(plainName(node.name))) continue;
    if (enclosingDialog(target, entry)?.node.id === dialog.node.id) return node;
  }
  return undefined;
}

const TEXT_ROLES = new Set<Role>(['textfield', 'textarea', 'document', 'combobox', 'spinbutton']);
/** Buttons asked whether they are the default, at most: a dialog has a handful, a main window may have hundreds. */
const DEFAULT_CANDIDATES = 12;

/** The dialog's default button (what Return activates from a field in it), asked of its first few enabled buttons. */
async function defaultButton(accessibility: AccessibilityBackend, target: TargetTree, dialog: IndexedNode): Promise<UiNode | undefined> {
  if (accessibility.isDefault === undefined) return undefined;
  let asked = 0;
  for (const entry of target.index.values()) {
    const node = entry.node;
    if (node.role !== 'button' || !node.states.enabled || node.states.visible === false) continue;
    if (enclosingDialog(target, entry)?.node.id !== dialog.node.id) continue;
    if (asked >= DEFAULT_CANDIDATES) return undefined;
    asked += 1;
    if (await accessibility.isDefault(refOf(target, node), node).catch(() => false)) return node;
  }
  return undefined;
}

async function pressNode(accessibility: AccessibilityBackend, target: TargetTree, node: UiNode, via: string): Promise<Route | undefined> {
  return (await accessibility.press(refOf(target, node), node)) ? { method: 'accessibility', via } : undefined;
}

/** The enabled menu item the app says `combo` runs, found in the tree by its name. */
async function menuItemFor(
  accessibility: AccessibilityBackend,
  target: TargetTree,
  pid: number,
  combo: string,
  signal?: AbortSignal,
): Promise<UiNode | undefined> {
  if (accessibility.shortcuts === undefined) return undefined;
  const shortcut = (await accessibility.shortcuts(pid, signal)).find((each) => each.shortcut === combo && each.enabled);
  if (shortcut === undefined) return undefined;
  for (const entry of target.index.values()) {
    if (entry.node.role === 'menuitem' && entry.node.states.enabled && entry.node.name.trim() === shortcut.name) return entry.node;
  }
  return undefined;
}

/** Arrow keys and their direction along a list (up/down) or a tab strip (left/right); Home and End go to the ends. */
const STEPS: Record<string, number> = { up: -1, left: -1, down: 1, right: 1, home: Number.NEGATIVE_INFINITY, end: Number.POSITIVE_INFINITY };

/**
 * An arrow key on a list item or tab moves the selection to its neighbour, through the
 * container's Selection: what the key does in a list, without the keyboard. Undefined for
 * any other key or node, at either end of the list, or when the container has no Selection.
 */
async function moveSelection(accessibility: AccessibilityBackend, target: TargetTree, entry: IndexedNode, key: string): Promise<Route | undefined> {
  const step = STEPS[key];
  if (step === undefined || !SELECTABLE.has(entry.node.role) || accessibility.select === undefined || entry.parentId === undefined) return undefined;
  // Tabs go left and right, rows up and down: the other pair means something else there.
  if ((entry.node.role === 'tab') !== (key === 'left' || key === 'right') && Number.isFinite(step)) return undefined;
  const container = target.index.get(entry.parentId);
  const siblings = (container?.node.children ?? []).filter((child) => child.role === entry.node.role);
  const at = siblings.findIndex((child) => child.id === entry.node.id);
  const next = step === Number.NEGATIVE_INFINITY ? 0 : step === Number.POSITIVE_INFINITY ? siblings.length - 1 : at + step;
  const sibling = siblings[next];
  if (container === undefined || sibling === undefined || next === at) return undefined;
  const selected = await accessibility.select(refOf(target, sibling), sibling, refOf(target, container.node));
  return selected ? { method: 'accessibility', via: 'selection' } : undefined;
}

/** Keys that run a menu command with no modifier held: function keys (F11 Fullscreen, F1 Help). */
const FUNCTION_KEY = /^f\d{1,2}$/;

/**
 * A key with an accessible meaning, carried out without the keyboard: Return or Space on a
 * focused button presses it; Escape in a dialog presses its Cancel (or Close) button; a menu
 * shortcut runs its menu item's action. Undefined when the key has no such meaning here, or
 * the accessible call refused: the key is then sent as keys.
 */
export async function accessibleKey(
  accessibility: AccessibilityBackend,
  target: TargetTree & { target: IndexedNode | undefined },
  request: { pid: number; key: string; modifiers: readonly Modifier[]; platform: PlatformName },
  signal?: AbortSignal,
): Promise<Route | undefined> {
  const { pid, key, modifiers } = request;
  const entry = keyTarget(target);
  // A backend that knows a key's meaning natively (macOS: AXConfirm, the default button, AXCancel) goes first.
  if (await accessibility.keyAction?.(pid, key, modifiers, entry === undefined ? undefined : refOf(target, entry.node), entry?.node)) {
    return { method: 'accessibility', via: 'key-action' };
  }
  if (modifiers.length === 0 && !FUNCTION_KEY.test(key)) {
    const moved = entry === undefined ? undefined : await moveSelection(accessibility, target, entry, key);
    if (moved !== undefined) return moved;
    if ((key === 'return' || key === 'space') && entry !== undefined && PRESSABLE.has(entry.node.role)) {
      return pressNode(accessibility, target, entry.node, 'action');
    }
    // From a text field Return is the field's own (a search, a new line, or the default if the app
    // says so): only the app knows, so that one goes as a key.
    if (key === 'return' && entry !== undefined && entry.node.states.editable !== true && !TEXT_ROLES.has(entry.node.role)) {
      const dialog = enclosingDialog(target, entry);
      const button = dialog === undefined ? undefined : await defaultButton(accessibility, target, dialog);
      if (button !== undefined) return pressNode(accessibility, target, button, 'default-button');
    }
    if (key === 'escape' && entry !== undefined) {
      const dialog = enclosingDialog(target, entry);
      // A window counts too: many dialogs (yad's, zenity's) are plain top-level windows to AT-SPI.
      const cancel = dialog === undefined ? undefined : cancelButton(target, dialog);
      if (cancel !== undefined) return pressNode(accessibility, target, cancel, 'dialog-cancel');
    }
    return undefined;
  }
  const combo = formatShortcut(modifiers, key, request.platform);
  if (combo === undefined) return undefined;
  const item = await menuItemFor(accessibility, target, pid, combo, signal).catch(() => undefined);
  return item === undefined ? undefined : pressNode(accessibility, target, item, 'menu-item');
}
