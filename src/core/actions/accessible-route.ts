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

function cancelButton(target: TargetTree, dialog: IndexedNode): UiNode | undefined {
  for (const entry of target.index.values()) {
    const node = entry.node;
    if (node.role !== 'button' || !node.states.enabled || node.states.visible === false || !CANCEL_NAMES.has(plainName(node.name))) continue;
    if (enclosingDialog(target, entry)?.node.id === dialog.node.id) return node;
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
  if (modifiers.length === 0 && !FUNCTION_KEY.test(key)) {
    if ((key === 'return' || key === 'space') && entry !== undefined && PRESSABLE.has(entry.node.role)) {
      return pressNode(accessibility, target, entry.node, 'action');
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
