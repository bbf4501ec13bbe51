import type { Pointer } from '../../../../../native/macos';
import { AXError } from '../ax-errors';
import type { FakeHeap, FakeObject } from './fake-cf';
import { contentShows, type FakeApp, type FakeNode, type FakeWorld } from './fake-world';

export type ElementObject = Extract<FakeObject, { kind: 'element' }>;
/** What a read of an attribute the element lacks answers. */
export const SLOT_MISSING = AXError.NoValue;

export interface AttributeContext {
  heap: FakeHeap;
  world: FakeWorld;
  element: (pid: number, node: unknown) => Pointer;
  booleans: [Pointer, Pointer];
  /** Told the text of every AXValue handed over. */
  served: (text: string) => void;
}

const MENU_BAR = (): FakeNode => ({ role: 'AXMenuBar', children: [{ role: 'AXMenuBarItem', title: 'Apple' }] });

/** Children of a fake element; an Electron window stays empty until its app switched accessibility on. */
export function childNodes(world: FakeWorld, target: ElementObject, attribute: string): FakeNode[] {
  const app = world.apps.find((entry) => entry.pid === target.pid) as FakeApp;
  // As in AppKit, an app's AXChildren starts with its menu bar; AXWindows holds only the windows.
  if (target.node === app) return attribute === 'AXWindows' ? app.windows : attribute === 'AXChildren' ? [(app.menuBar ??= MENU_BAR()), ...app.windows] : [];
  const node = target.node as FakeNode;
  if (attribute !== 'AXChildren') return [];
  const { electron } = app;
  if (electron !== undefined && app.windows.includes(node)) {
    if (!contentShows(electron, world.clockMs ?? 0)) return [];
    if (electron.readsBeforeTree > 0) {
      electron.readsBeforeTree -= 1;
      return [];
    }
    return electron.reasserted === true ? [...electron.content, ...(electron.lateContent ?? [])] : electron.content;
  }
  return node.children ?? [];
}

/** A fresh +1 object for an attribute's value, or the AXError a read returns. */
export function readAttribute(context: AttributeContext, target: ElementObject, name: string): Pointer | number {
  const { heap, world } = context;
  const [kTrue, kFalse] = context.booleans;
  const app = world.apps.find((entry) => entry.pid === target.pid) as FakeApp;
  const isApp = target.node === app;
  const node = target.node as FakeNode;
  const string = (text: string | undefined) => (text === undefined ? SLOT_MISSING : heap.add({ kind: 'string', text }));
  switch (name) {
    case 'AXRole':
      return string(isApp ? 'AXApplication' : node.role);
    case 'AXTitle':
      return string(isApp ? app.name : node.title);
    case 'AXWindows':
    case 'AXChildren':
      if (name === 'AXChildren' && !isApp && node.childrenUnsupported === true) return AXError.AttributeUnsupported;
      return heap.add({ kind: 'array', items: childNodes(world, target, name).map((child) => context.element(target.pid, child)) });
  }
  if (isApp) {
    if (name === 'AXMenuBar') return context.element(target.pid, (app.menuBar ??= MENU_BAR()));
    const window = app.windows[0];
    if (name === 'AXFocusedWindow') return window === undefined ? SLOT_MISSING : context.element(target.pid, window);
    const focused = name === 'AXFocusedUIElement' ? findNode(app.windows, (node) => node.focused === true) : undefined;
    return focused === undefined ? SLOT_MISSING : context.element(target.pid, focused);
  }
  const integer = (value: number | undefined) => (value === undefined ? SLOT_MISSING : heap.add({ kind: 'number', value, type: 9 }));
  switch (name) {
    case 'AXSubrole':
      return string(node.subrole);
    case 'AXDescription':
      return string(node.description);
    case 'AXIdentifier':
      return string(node.identifier);
    case 'AXPlaceholderValue':
      return string(node.placeholder);
    case 'AXTitleUIElement':
      return node.titleElement === undefined ? SLOT_MISSING : context.element(target.pid, node.titleElement);
    case 'AXHelp':
      return string(node.help);
    case 'AXValue':
      if (node.value === undefined) return SLOT_MISSING;
      if (typeof node.value === 'string') {
        context.served(node.value);
        return string(node.value);
      }
      if (typeof node.value === 'boolean') return heap.retain(node.value ? kTrue : kFalse);
      return heap.add({ kind: 'number', value: node.value, type: 13 });
    case 'AXSelectedText': {
      if (typeof node.value !== 'string' || node.selection === undefined) return SLOT_MISSING;
      const { location, length } = node.selection;
      return string(node.value.slice(location, location + length));
    }
    case 'AXWindow': {
      const window = app.windows.find((candidate) => candidate === node || findNode(candidate.children ?? [], (child) => child === node) !== undefined);
      return window === undefined ? SLOT_MISSING : context.element(target.pid, window);
    }
    case 'AXDefaultButton':
      return node.defaultButton === undefined ? SLOT_MISSING : context.element(target.pid, node.defaultButton);
    case 'AXCancelButton':
      return node.cancelButton === undefined ? SLOT_MISSING : context.element(target.pid, node.cancelButton);
    case 'AXNumberOfCharacters':
      return typeof node.value === 'string' ? heap.add({ kind: 'number', value: node.value.length, type: 9 }) : SLOT_MISSING;
    case 'AXEnabled':
      if (node.numericFlags === true) return heap.add({ kind: 'number', value: node.enabled === false ? 0 : 1, type: 9 });
      return heap.retain(node.enabled === false ? kFalse : kTrue);
    case 'AXFocused':
      if (node.numericFlags === true) return heap.add({ kind: 'number', value: node.focused === true ? 1 : 0, type: 9 });
      return heap.retain(node.focused === true ? kTrue : kFalse);
    case 'AXPosition':
      return node.position === undefined ? SLOT_MISSING : heap.add({ kind: 'axValue', type: 1, point: node.position });
    case 'AXSize':
      return node.size === undefined ? SLOT_MISSING : heap.add({ kind: 'axValue', type: 2, size: node.size });
    // AppKit answers these on menu items only; other elements do not support them.
    case 'AXMenuItemCmdChar':
      return node.role !== 'AXMenuItem' ? AXError.AttributeUnsupported : string(node.cmdChar);
    case 'AXMenuItemCmdModifiers':
      return node.role !== 'AXMenuItem' ? AXError.AttributeUnsupported : integer(node.cmdModifiers);
    case 'AXMenuItemCmdVirtualKey':
      return node.role !== 'AXMenuItem' ? AXError.AttributeUnsupported : integer(node.cmdVirtualKey);
    case 'AXMenuItemCmdGlyph':
      return node.role !== 'AXMenuItem' ? AXError.AttributeUnsupported : integer(node.cmdGlyph);
    default:
      return AXError.AttributeUnsupported;
  }
}

/** The slots of one AXUIElementCopyMultipleAttributeValues answer (options 0), or the AXError the whole call returns. */
export function batchSlots(context: AttributeContext, target: ElementObject, names: string[], cfNull: Pointer): Pointer[] | number {
  const { heap } = context;
  const node = target.node as FakeNode;
  if (node.batchError !== undefined && (node.batchErrorAlways === true || names.includes('AXChildren'))) return node.batchError;
  const error = (code: number) => heap.add({ kind: 'axValue', type: 5, error: code });
  return names.slice(0, node.batchShort ?? names.length).map((name) => {
    const scripted = name === 'AXChildren' ? node.batchChildrenError : node.batchSlots?.[name];
    if (scripted === 'null') return heap.retain(cfNull);
    if (scripted !== undefined) return error(scripted);
    const made = readAttribute(context, target, name);
    if (typeof made !== 'number') return made;
    return made === SLOT_MISSING ? heap.retain(cfNull) : error(made);
  });
}

/** The first node of these trees, depth first, that passes `test`. */
export function findNode(nodes: FakeNode[], test: (node: FakeNode) => boolean): FakeNode | undefined {
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.shift() as FakeNode;
    if (test(node)) return node;
    stack.unshift(...(node.children ?? []));
  }
  return undefined;
}
