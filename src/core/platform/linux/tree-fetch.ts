/**
 * A whole app's tree, or a subtree's, in few round trips: the cache's rows where the toolkit
 * has them (tree-items.ts), a walk of the rest (tree-walk.ts), then values and extents where a
 * node has them (tree-values.ts), all pipelined with bounded concurrency.
 */
import { IFACE, ROLE, ROOT_PATH } from '../../../../native/linux/atspi';
import type { ReadCut } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import type { BoundsMode } from '../types';
import type { AtspiClient, AtspiRef } from './client';
import { mapLimit } from './pool';
import { geometryNames } from './geometry-names';
import { relationNames } from './relation-names';
import { normalizeRole } from './roles';
import { findPopovers } from './popovers';
import { originsByTitle, screenWindows, type Origin, type ScreenWindow } from './window-origin';
import { isHugeContainer } from './table-range';
import { settleKept } from './kept-reads';
import { cachedItems, descendants, readItem, rowChildren, rowsOf, unlessFrozen, type AppTarget, type CacheRow, type CacheRows, type Item } from './tree-items';
import { CONCURRENCY, adoptOrphans, walkMissing, type Alternates, type CutMark } from './tree-walk';
import { readInOrder } from './tree-order';
import { capabilities, needsDetail, readDetail, readExtents, roleOf, statesOf, type Detail } from './tree-values';

// What other modules read from here, wherever it now lives.
export { cacheRows, placedElsewhere, readItem, rowChildren, unlessFrozen, type AppTarget, type CacheRow, type CacheRows, type Item } from './tree-items';
export {
  MAX_TREE_TEXT,
  capabilities,
  hasValue,
  isSecret,
  readExtents,
  readStates,
  readText,
  readValue,
  roleNeedsStates,
  roleOf,
  statesOf,
  type ValueRead,
} from './tree-values';
export { listedChildren } from './tree-walk';

/** Where a subtree fetch starts, and the window it is in (GTK 4 extents are relative to it). */
export interface SubtreeRoot {
  path: string;
  window?: string;
  /** The app's cache as last read: the subtree's nodes come from it as a full read's do, walking only what it leaves out. */
  rows?: CacheRows;
}

export interface FetchOptions {
  bounds: BoundsMode;
  maxNodes: number;
  maxDepth: number;
  /** Hears what Cache.GetItems said, when a whole app is read through it (the mirror checks itself against it). */
  onRows?: (rows: CacheRows) => void;
}

/** Roles a person acts on: a name missing on one of them is worth a call to check. */
const ACTED_ON = new Set([
  'button',
  'togglebutton',
  'checkbox',
  'radio',
  'switch',
  'menuitem',
  'textfield',
  'combobox',
  'link',
  'tab',
  'listitem',
  'slider',
  'spinbutton',
  'treeitem',
]);

/**
 * Gecko and Chromium name some controls after their cache row was made, without a
 * name-change event that would refresh it: an unnamed control from the cache has its Name read.
 */
async function refreshNames(client: AtspiClient, items: Map<string, Item>, order: readonly string[]): Promise<void> {
  const unnamed = order.filter((path) => {
    const item = items.get(path) as Item;
    return item.parentPath !== undefined && item.name.trim() === '' && ACTED_ON.has(normalizeRole(item.role));
  });
  await mapLimit(unnamed, CONCURRENCY, async (path) => {
    const item = items.get(path) as Item;
    const name = await client.property(item.self, IFACE.accessible, 'Name').catch(unlessFrozen(''));
    if (typeof name === 'string' && name.trim() !== '') items.set(path, { ...item, name });
  });
}

/** The nodes to keep, breadth first, so the node and depth caps cut the deepest parts. */
function breadthFirst(
  children: Map<string, string[]>,
  items: Map<string, Item>,
  rootPath: string,
  options: FetchOptions,
  cut: CutMark,
): { order: string[]; parentOf: Map<string, string> } {
  const order: string[] = [];
  // A node sits once, under the first parent that reached it: children lists may loop.
  const parentOf = new Map<string, string>();
  let frontier = [rootPath];
  let depth = 0;
  for (; frontier.length > 0 && depth <= options.maxDepth && order.length < options.maxNodes; depth += 1) {
    if (frontier.length > options.maxNodes - order.length) cut(options.maxNodes);
    if (frontier.length > options.maxNodes - order.length) frontier = frontier.slice(0, options.maxNodes - order.length);
    for (const path of frontier) order.push(path);
    // Plain loops, one array a level: a list and a closure per parent were 20,000 of each on a big page.
    const next: string[] = [];
    for (const path of frontier)
      for (const child of children.get(path) ?? [])
        if (items.has(child) && child !== rootPath && !parentOf.has(child)) {
          parentOf.set(child, path);
          next.push(child);
        }
    frontier = next;
  }
  // Nodes left past the last level kept: a cap stopped the read, not the tree's end.
  if (frontier.length > 0) {
    if (order.length >= options.maxNodes) cut(options.maxNodes);
    else cut(options.maxDepth, 'max-depth');
  }
  return { order, parentOf };
}

/**
 * Fetches one app's tree: Cache.GetItems where the toolkit has it, then a parallel walk
 * of whatever the cache left out (GTK3 table and tree cells, all of Chromium), then
 * values and, when asked, extents, all pipelined with bounded concurrency.
 */
export async function fetchTree(client: AtspiClient, app: AppTarget, options: FetchOptions, subtree?: SubtreeRoot): Promise<RawNode<AtspiRef>> {
  const { pid, bus, gtk4 } = app;
  const items = new Map<string, Item>();
  const rootPath = subtree?.path ?? ROOT_PATH;
  // A read is thousands of calls: straight to the app where its bridge allows, not through the bus daemon.
  if (app.bridge.direct) await client.connectDirect(bus);
  // Interfaces kept from the last read hold only if no event sent before this read is still on its way.
  if (app.bridge.keptInterfaces) await settleKept(client, bus);
  // A subtree is read node by node: GetItems would cost the whole app.
  if (subtree !== undefined) items.set(rootPath, await readItem(client, [bus, rootPath], 0, app.bridge));
  const rows = subtree === undefined ? rowsOf(await cachedItems(client, bus, app.bridge)) : (subtree.rows ?? new Map<string, CacheRow>());
  if (subtree === undefined && rows.size > 0) options.onRows?.(rows);
  const byParent = rowChildren(rows);
  const inside = subtree === undefined ? [...rows.keys()] : descendants(byParent, rootPath);
  for (const path of inside) items.set(path, rows.get(path) as CacheRow);
  // A subtree knows only the lists under its root: the cache's parents and the walk's together can loop above it.
  const children =
    subtree === undefined
      ? byParent
      : new Map([rootPath, ...inside].flatMap((path) => (byParent.has(path) ? [[path, byParent.get(path) as string[]] as const] : [])));
  if (!items.has(ROOT_PATH))
    items.set(ROOT_PATH, {
      self: [bus, ROOT_PATH],
      index: 0,
      childCount: -1,
      interfaces: [IFACE.accessible, IFACE.application],
      name: app.name,
      role: ROLE.APPLICATION,
      description: '',
      states: [],
    });

  const alternates: Alternates = new Map();
  // The first cap met is the reason given: a node cap also cuts the levels under it.
  let cut: ReadCut | undefined;
  const markCut: CutMark = (limit, reason = 'max-nodes') => void (cut ??= { reason, limit, nodes: 0 });
  // Rows that answer for nodes the walk reaches (a whole read only: GetItems costs the whole app).
  // Asked, not awaited: the document order below is asked beside it (Firefox: 81 → 53 ms a read).
  const knownRows = subtree === undefined && !app.bridge.cache && app.bridge.cacheItems ? cachedItems(client, bus, { cache: true }).then(rowsOf) : undefined;
  // Where the bridge lists a whole app in document order, the walk below only mends what that order left out.
  if (subtree === undefined && app.bridge.order) await readInOrder(client, app, items, children, options.maxNodes, knownRows);
  const known = await knownRows;
  const walk = (from: string): Promise<void> => walkMissing(client, app, items, children, from, options.maxNodes, alternates, markCut, known);
  await walk(rootPath);
  await adoptOrphans(children, alternates, rootPath, walk);
  const { order, parentOf } = breadthFirst(children, items, rootPath, options, markCut);
  if (!app.bridge.cacheNames) await refreshNames(client, items, order);
  const kept = new Set(order);
  const sitsUnder = (child: string, path: string): boolean => kept.has(child) && parentOf.get(child) === path;
  // A list is almost always kept whole: then it is handed out itself (read only), not copied node by node.
  const childrenOf = (path: string): readonly string[] => {
    const list = children.get(path) ?? NO_CHILDREN;
    for (const child of list) if (!sitsUnder(child, path)) return list.filter((each) => sitsUnder(each, path));
    return list;
  };
  // Only nodes with something to read cost a call: values of text and numeric widgets, and extents when asked.
  const wanted = order.filter((path) => needsDetail(items.get(path) as Item, options.bounds));
  // Values and labels are independent reads, so they share the round trips.
  const [detailed, names] = await Promise.all([
    mapLimit(wanted, CONCURRENCY, (path) => readDetail(client, items.get(path) as Item, options.bounds, app.bridge)),
    relationNames(client, items, order, (item) => roleOf(item as Item), gtk4),
  ]);
  const details = new Map(wanted.map((path, index) => [path, detailed[index] as Detail]));
  const windows: ScreenWindow[] = gtk4 && options.bounds !== 'none' ? await screenWindows() : [];
  const origins: Map<string, Origin> = originsByTitle(windows);
  // A GTK 4 popover is a surface of its own, placed apart from the window its extents count from.
  // Without a window on screen there is no popover to place: no pass over every node for candidates.
  const popovers =
    windows.length === 0
      ? new Map<string, Origin>()
      : await findPopovers(windows, {
          order,
          isCandidate: (path) => isPopoverCandidate(items, parentOf, path),
          windowOriginOf: (path) => origins.get(subtree?.window ?? topLevelName(items, parentOf, path) ?? ''),
          extentsOf: async (path) => details.get(path)?.bounds ?? (await readExtents(client, [bus, path]).catch(unlessFrozen(undefined))),
        });
  await geometryNames(items, order, names, {
    parentOf: (path) => parentOf.get(path),
    childrenOf,
    // Extents the detail pass already read are reused; the rest cost one call each.
    extentsOf: async (path) => details.get(path)?.bounds ?? (await readExtents(client, [bus, path]).catch(unlessFrozen(undefined))),
    roleOf: (item) => roleOf(item as Item),
  });

  const build = (path: string, window: string | undefined, origin: Origin | undefined, inPopover?: string): RawNode<AtspiRef> => {
    const item = items.get(path) as Item;
    const detail = details.get(path) ?? {};
    const fix = names.get(path);
    const topLevel = window === undefined && path !== ROOT_PATH;
    const windowName = topLevel ? item.name : window;
    // GTK 4 reports extents relative to the window; the X window's origin puts them on screen.
    const popover = popovers.has(path) ? path : inPopover;
    const shift = popovers.get(path) ?? (topLevel && gtk4 ? origins.get(item.name) : origin);
    // Optional fields are set one by one in the order the tree has always had them (JSON keeps
    // insertion order): no object made and spread per optional field of 20,000 nodes.
    const ref: AtspiRef = { pid, bus, path, interfaces: item.interfaces, role: item.role, gtk4 };
    if (windowName !== undefined) ref.window = windowName;
    if (popover !== undefined) ref.popover = popover;
    if (isHugeContainer(item)) ref.huge = true;
    // GTK3 pads menu item names with spaces ("Save      "); they only cost the model tokens.
    // states and actions are set below, after the optional fields that come before them.
    const node = { ref, role: roleOf(item), platformRole: platformRole(item.role), name: fix?.name ?? item.name.trim() } as RawNode<AtspiRef>;
    if (fix?.nameFrom !== undefined) node.nameFrom = fix.nameFrom;
    const description = fix?.description ?? item.description;
    if (description !== '') node.description = description;
    const value = detail.value ?? fix?.value;
    if (value !== undefined) node.value = value as string | number;
    if (detail.truncated === true) node.valueTruncated = true;
    if (fix?.placeholder !== undefined) node.placeholder = fix.placeholder;
    node.states = path === ROOT_PATH ? { enabled: true, focused: false } : statesOf(item, gtk4);
    if (detail.bounds !== undefined)
      node.bounds = shift === undefined ? detail.bounds : { ...detail.bounds, x: detail.bounds.x + shift.x, y: detail.bounds.y + shift.y };
    node.actions = capabilities(item);
    const kids = childrenOf(path);
    if (kids.length > 0) node.children = kids.map((child) => build(child, windowName, shift, popover));
    return node;
  };
  const tree = build(rootPath, subtree?.window, undefined);
  // Said on the root, so no reader takes a cut tree for the whole one (find, tree --json, ui_tree).
  return cut === undefined ? tree : { ...tree, cut: { ...(cut as ReadCut), nodes: order.length } };
}

const NO_CHILDREN: readonly string[] = [];

/** One string per raw role, shared by every node that has it, rather than one made per node. */
const platformRoles = new Map<number, string>();
function platformRole(role: number): string {
  let name = platformRoles.get(role);
  if (name === undefined) {
    name = `atspi:${role}`;
    // Roles are a small enum; an app inventing numbers gets its strings made, not kept.
    if (platformRoles.size < 256) platformRoles.set(role, name);
  }
  return name;
}

const POPOVER_ROLES: ReadonlySet<number> = new Set([ROLE.FILLER, ROLE.MENU, ROLE.POPUP_MENU, ROLE.DIALOG, ROLE.WINDOW]);
/** Widgets a GTK 4 popover hangs from: drop-downs, (menu) buttons, menu items, entries (completion, emoji). */
const OPENER_ROLES: ReadonlySet<number> = new Set([
  ROLE.COMBO_BOX,
  ROLE.PUSH_BUTTON,
  ROLE.TOGGLE_BUTTON,
  ROLE.PUSH_BUTTON_MENU,
  ROLE.MENU_ITEM,
  ROLE.ENTRY,
  ROLE.TEXT,
  ROLE.SPIN_BUTTON,
]);

/** A GTK 4 popover is a child of the widget that opens it: a container under a drop-down, a button, a menu item or an entry. */
function isPopoverCandidate(items: Map<string, Item>, parentOf: Map<string, string>, path: string): boolean {
  const item = items.get(path);
  const parent = items.get(parentOf.get(path) ?? '');
  return item !== undefined && parent !== undefined && POPOVER_ROLES.has(item.role) && OPENER_ROLES.has(parent.role);
}

/** The title of the top-level window a node is in: its ancestor right under the application. */
function topLevelName(items: Map<string, Item>, parentOf: Map<string, string>, path: string): string | undefined {
  let current = path;
  for (let depth = 0; depth < 1000; depth += 1) {
    const parent = parentOf.get(current);
    if (parent === undefined) return undefined;
    if (parent === ROOT_PATH) return items.get(current)?.name;
    current = parent;
  }
  return undefined;
}
