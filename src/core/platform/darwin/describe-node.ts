import type { Bounds, UiStates } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import { flag, type JsValue } from './cf';
import { SECURE_SUBROLE, TEXT_ROLES, TOGGLE_ROLES, capabilities, normalizeRole } from './roles';
import type { WindowKey } from './window-key';

/**
 * How a node is found again: the pid, child indices from the app element (the first into
 * AXWindows, the rest into AXChildren), the AXRole it had, and the window it is in. No
 * AXUIElementRef outlives the call that read it; actions re-resolve the path and check the role
 * (resolve.ts). The window is found by `window`, not by the first index: AXWindows is in
 * stacking order, which every raise changes.
 */
export interface MacRef {
  pid: number;
  path: number[];
  axRole: string;
  window?: WindowKey;
}

/** The batch slots a description reads. */
type Attribute = 'AXTitle' | 'AXDescription' | 'AXEnabled' | 'AXFocused' | 'AXPosition' | 'AXSize' | 'AXPlaceholderValue';

/** Text read into the tree per field; ui_read gives the rest. */
export const MAX_TREE_TEXT = 4000;

/** What the walk learnt of a node before describing it: where it is, its roles, and its AXValue if it was read. */
export interface KnownNode {
  pid: number;
  path: number[];
  axRole: string;
  subrole: string | undefined;
  raw: JsValue;
}

/** A node from its batch slots (`read`). */
export function describeNode(known: KnownNode, read: (name: Attribute) => JsValue): RawNode<MacRef> {
  const { pid, path, axRole, subrole, raw } = known;
  const role = normalizeRole(axRole, subrole);
  const secret = subrole === SECURE_SUBROLE || axRole === SECURE_SUBROLE;
  const value = scalar(raw);
  const title = text(read('AXTitle')) ?? '';
  const description = text(read('AXDescription')) ?? '';
  const name = title || description || (role === 'label' && typeof value === 'string' ? value : '');
  // A CFNumber 0/1 counts as the boolean it stands for (cf.flag).
  const enabled = flag(read('AXEnabled')) !== false;
  const states: UiStates = { enabled, focused: flag(read('AXFocused')) === true };
  if (TOGGLE_ROLES.has(role) && typeof value === 'number') states.checked = value === 1;
  if (TEXT_ROLES.has(role) && axRole !== 'AXPopUpButton') states.editable = true;
  if (secret) states.secret = true;
  const bounds = boundsOf(read('AXPosition'), read('AXSize'));
  const node: RawNode<MacRef> = {
    ref: { pid, path, axRole },
    role,
    platformRole: subrole === undefined ? axRole : `${axRole}/${subrole}`,
    name,
    states,
    actions: capabilities(role, enabled),
  };
  if (value !== undefined && !(role === 'label' && value === name)) node.value = value;
  if (typeof raw === 'string' && raw.length > MAX_TREE_TEXT) node.valueTruncated = true;
  if (description !== '' && description !== name) node.description = description;
  const placeholder = secret ? undefined : text(read('AXPlaceholderValue'));
  if (placeholder !== undefined) node.placeholder = placeholder;
  if (bounds !== undefined) node.bounds = bounds;
  return node;
}

export function text(value: JsValue): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function scalar(value: JsValue): string | number | undefined {
  if (typeof value === 'string') return value.length > MAX_TREE_TEXT ? value.slice(0, MAX_TREE_TEXT) : value;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

function boundsOf(position: JsValue, size: JsValue): Bounds | undefined {
  if (typeof position !== 'object' || typeof size !== 'object' || !('x' in position) || !('width' in size)) return undefined;
  return { x: position.x, y: position.y, width: size.width, height: size.height };
}
