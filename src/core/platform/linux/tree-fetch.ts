import { CACHE_PATH, COORD_SCREEN, IFACE, OFFSCREEN_X, ROLE, ROOT_PATH, STATE, type CacheItem, type ObjectRef } from '../../../../native/linux/atspi';
import type { Bounds, ReadCut } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import type { BoundsMode } from '../types';
import type { AtspiClient, AtspiRef } from './client';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import type { Bridge } from './bridges';
import { isAppGone } from './read-crash';
import { limiter, mapLimit } from './pool';
import { geometryNames } from './geometry-names';
import { relationNames } from './relation-names';
import { CONTENT_TEXT_ROLES, NUMERIC_VALUE_ROLES, TEXT_VALUE_ROLES, normalizeRole } from './roles';
import { decodeStates, hasState } from './states';
import { findPopovers } from './popovers';
import { originsByTitle, screenWindows, type Origin, type ScreenWindow } from './window-origin';
import { isHugeContainer, labelRangeCell, visibleCells, type RangeCell } from './table-range';

export interface AppTarget {
  pid: number;
  bus: string;
  name: string;
  gtk4: boolean;
  /** Which calls the app's toolkit bridge takes without harm. */
  bridge: Bridge;
}

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

/** One row of the app's cache, with its place in GetItems' answer (which orders children whose index is -1). */
export interface CacheRow extends Item {
  position: number;
}

export type CacheRows = Map<string, CacheRow>;

/** Nodes whose calls are in flight at once: enough to pipeline, few enough not to swamp the app. */
const CONCURRENCY = 48;
/** Text read into the tree per field; ui_read gives the rest. */
export const MAX_TREE_TEXT = 4000;

export interface Item {
  self: ObjectRef;
  index: number;
  /** -1 when unknown, so the node is walked. */
  childCount: number;
  interfaces: string[];
  name: string;
  role: number;
  description: string;
  states: number[];
  /** Known for cache rows only; walked nodes hang under the path they were found under. */
  parentPath?: string;
}

export interface ValueRead {
  value?: string | number;
  truncated?: boolean;
}

interface Detail extends ValueRead {
  bounds?: Bounds;
}

/** Cache.GetItems: one call for an app's whole tree, where the toolkit implements it (GTK3, GTK4). */
async function cachedItems(client: AtspiClient, bus: string, bridge: Bridge): Promise<Item[]> {
  if (!bridge.cache) return [];
  try {
    const [rows] = await client.call([bus, CACHE_PATH], IFACE.cache, 'GetItems');
    return (rows as CacheItem[]).map((row) => ({
      self: row[0],
      index: row[3],
      childCount: row[4],
      interfaces: row[5],
      name: row[6],
      role: row[7],
      description: row[8],
      states: row[9],
      parentPath: row[2][1],
    }));
  } catch (error) {
    if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
    return []; // Chromium has no cache: every node is walked.
  }
}

function rowsOf(items: Item[]): CacheRows {
  return new Map(items.map((item, position) => [item.self[1], { ...item, position }]));
}

/** Each parent's children by the cache, ordered as a full read orders them: by index, and where that ties (-1), by place in the answer. */
export function rowChildren(rows: CacheRows): Map<string, string[]> {
  const byParent = new Map<string, string[]>();
  for (const [path, row] of rows) {
    const parent = row.parentPath ?? '';
    const kids = byParent.get(parent);
    if (kids === undefined) byParent.set(parent, [path]);
    else kids.push(path);
  }
  const place = (path: string): [number, number] => [rows.get(path)?.index ?? 0, rows.get(path)?.position ?? 0];
  for (const kids of byParent.values())
    kids.sort((a, b) => {
      const [indexA, positionA] = place(a);
      const [indexB, positionB] = place(b);
      return indexA - indexB || positionA - positionB;
    });
  return byParent;
}

/** Everything under `root` by the cache, root excluded. */
function descendants(byParent: Map<string, string[]>, root: string): string[] {
  const found: string[] = [];
  const seen = new Set([root]);
  for (let frontier = [root]; frontier.length > 0;) {
    frontier = frontier.flatMap((parent) => (byParent.get(parent) ?? []).filter((path) => !seen.has(path) && seen.add(path)));
    found.push(...frontier);
  }
  return found;
}

/** The whole cache of an app; undefined where the toolkit keeps none (Chromium). */
export async function cacheRows(client: AtspiClient, bus: string, bridge: Bridge): Promise<CacheRows | undefined> {
  const items = await cachedItems(client, bus, bridge);
  return items.length === 0 ? undefined : rowsOf(items);
}

/**
 * Nodes come and go while a tree is read, so a failed call on one is skipped. A timeout
 * is different: the app is frozen, and the caller must hear it as TIMEOUT, not get a stub tree.
 */
export function unlessFrozen<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    // The app left the bus (it crashed or quit): that is the read's answer, not one missing node.
    if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
    return fallback;
  };
}

const PROPERTIES = 'org.freedesktop.DBus.Properties';

/**
 * A node's name, description and child count in one Properties.GetAll, where the toolkit's
 * bridge is known to answer it (GTK 3, GTK 4, Gecko, Chromium, LibreOffice); three Gets
 * otherwise: GetAll crashes Qt 5 and Qt 6 apps.
 */
async function accessibleProperties(
  client: AtspiClient,
  self: ObjectRef,
  bridge: Bridge,
): Promise<{ name: unknown; description: unknown; childCount: unknown }> {
  if (bridge.getAll)
    try {
      const [all] = await client.call(self, PROPERTIES, 'GetAll', 's', [IFACE.accessible]);
      const value = (key: string): unknown => (all as Record<string, { value?: unknown } | undefined>)[key]?.value;
      if (value('ChildCount') !== undefined) return { name: value('Name'), description: value('Description'), childCount: value('ChildCount') };
    } catch (error) {
      if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
    }
  const [name, description, childCount] = await Promise.all(
    ['Name', 'Description', 'ChildCount'].map((property) => client.property(self, IFACE.accessible, property)),
  );
  return { name, description, childCount };
}

/** Everything the tree needs about one node, in four pipelined calls. */
export async function readItem(client: AtspiClient, self: ObjectRef, index: number, bridge: Bridge): Promise<Item> {
  const [[role], [states], [interfaces], { name, description, childCount }] = await Promise.all([
    client.call(self, IFACE.accessible, 'GetRole'),
    client.call(self, IFACE.accessible, 'GetState'),
    client.call(self, IFACE.accessible, 'GetInterfaces'),
    accessibleProperties(client, self, bridge),
  ]);
  return {
    self,
    index,
    childCount: Number(childCount),
    interfaces: interfaces as string[],
    name: String(name ?? ''),
    role: Number(role),
    description: String(description ?? ''),
    states: states as number[],
  };
}

/** Whether the cache puts a node under another parent that is itself in the tree (then it belongs there, not here). */
export function placedElsewhere(cacheParent: string | undefined, here: string, known: (path: string) => boolean): boolean {
  return cacheParent !== undefined && cacheParent !== here && known(cacheParent);
}

/** A node whose children the cache did not list in full (GTK3 menus report -1, tables leave cells out). */
function isIncomplete(item: Item, children: Map<string, string[]>): boolean {
  return item.childCount !== 0 && (children.get(item.self[1])?.length ?? 0) !== item.childCount;
}

/** Where GetChildren listed a node that the cache placed under another parent: its place if that parent is never reached. */
type Alternates = Map<string, { parent: string; index: number }>;

/**
 * A node's children as GetChildren lists them, less those the cache places under another
 * parent it holds (GTK3 lists a popup's insides under the button too). Each one left out is
 * remembered where it was listed, in case that other parent is never reached (see adoptOrphans).
 */
export function listedChildren(path: string, listed: string[], items: ReadonlyMap<string, Pick<Item, 'parentPath'>>, alternates?: Alternates): string[] {
  return listed.filter((child, index) => {
    const elsewhere = placedElsewhere(items.get(child)?.parentPath, path, (other) => items.has(other));
    if (elsewhere && alternates !== undefined && !alternates.has(child)) alternates.set(child, { parent: path, index });
    return !elsewhere;
  });
}

/**
 * Reads what the cache left out. Each subtree goes on as soon as its parent is known,
 * instead of level by level, so a deep uncached branch costs its depth in round trips
 * and nothing more; a limiter keeps the calls in flight bounded.
 */
async function walkMissing(
  client: AtspiClient,
  { bus, bridge }: AppTarget,
  items: Map<string, Item>,
  children: Map<string, string[]>,
  rootPath: string,
  maxNodes: number,
  alternates?: Alternates,
  cut?: CutMark,
): Promise<void> {
  const limit = limiter(CONCURRENCY);
  const addresses = new Map<string, RangeCell>();
  let inFlight = 0;
  // Each node is expanded once: an app whose children lists loop (a child listing its own
  // ancestor, with a child count that never matches) would otherwise recurse until the stack ran out.
  const expanded = new Set<string>();
  const expand = async (path: string): Promise<void> => {
    if (expanded.has(path)) return;
    expanded.add(path);
    const item = items.get(path) as Item;
    if (isIncomplete(item, children) && items.size >= maxNodes) cut?.(maxNodes);
    if (isIncomplete(item, children) && items.size < maxNodes) {
      // The cache says -1 (unknown) for a Writer document, which manages its descendants: its own count tells whether listing is safe.
      if (item.childCount < 0 && isHugeContainer(item)) {
        const count = Number(await limit(() => client.property([bus, path], IFACE.accessible, 'ChildCount')).catch(unlessFrozen(-1)));
        if (Number.isFinite(count) && count >= 0) items.set(path, { ...item, childCount: count });
      }
      if (isHugeContainer(items.get(path) as Item)) {
        // Never list the children of a sheet that claims billions of cells: read what is on screen.
        const cells = item.interfaces.includes(IFACE.table) ? await limit(() => visibleCells(client, [bus, path])).catch(unlessFrozen([])) : [];
        for (const cell of cells) addresses.set(cell.ref[1], cell);
        children.set(
          path,
          cells.map((cell) => cell.ref[1]),
        );
      } else {
        const [refs] = await limit(() => client.call([bus, path], IFACE.accessible, 'GetChildren')).catch(unlessFrozen([[]]));
        children.set(
          path,
          listedChildren(
            path,
            (refs as ObjectRef[]).map((ref) => ref[1]),
            items,
            alternates,
          ),
        );
      }
    }
    await Promise.all(
      (children.get(path) ?? []).map(async (child, index) => {
        if (!items.has(child)) {
          // Reads in flight count against the cap too: siblings start together, and none past the cap is read.
          if (items.size + inFlight >= maxNodes) return void cut?.(maxNodes);
          inFlight += 1;
          const read = await limit(() => readItem(client, [bus, child], index, bridge))
            .catch(unlessFrozen(undefined))
            .finally(() => (inFlight -= 1));
          if (read === undefined) return;
          // A cell of a range read without its name (LibreOffice names its own "A1") is named by its address, and described by its headers.
          const cell = addresses.get(child);
          if (cell !== undefined) labelRangeCell(read, cell);
          items.set(child, read);
        }
        await expand(child);
      }),
    );
  };
  await expand(rootPath);
}

function reachable(children: Map<string, string[]>, rootPath: string): Set<string> {
  const seen = new Set([rootPath]);
  for (let frontier = [rootPath]; frontier.length > 0;)
    frontier = frontier.flatMap((path) => (children.get(path) ?? []).filter((child) => !seen.has(child) && seen.add(child)));
  return seen;
}

/**
 * A node the cache places under a parent that is never reached from the root (LibreOffice
 * names a detached object as its main pane's parent) goes back where GetChildren listed it,
 * and what is under it is walked then. Bounded: each round adopts what the last one uncovered.
 */
async function adoptOrphans(children: Map<string, string[]>, alternates: Alternates, rootPath: string, walk: (orphan: string) => Promise<void>): Promise<void> {
  for (let round = 0; round < 4 && alternates.size > 0; round += 1) {
    const reached = reachable(children, rootPath);
    const orphans = [...alternates].filter(([child, { parent }]) => !reached.has(child) && reached.has(parent));
    if (orphans.length === 0) return;
    for (const [child, { parent, index }] of orphans) {
      alternates.delete(child);
      const kids = [...(children.get(parent) ?? [])];
      kids.splice(Math.min(index, kids.length), 0, child);
      children.set(parent, kids);
    }
    await Promise.all(orphans.map(([child]) => walk(child)));
  }
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

/** Says that the read left nodes out, and which cap made it. */
type CutMark = (limit: number, reason?: ReadCut['reason']) => void;

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
    frontier = frontier.slice(0, options.maxNodes - order.length);
    order.push(...frontier);
    frontier = frontier.flatMap((path) =>
      (children.get(path) ?? []).filter((child) => items.has(child) && child !== rootPath && !parentOf.has(child) && (parentOf.set(child, path), true)),
    );
  }
  // Nodes left past the last level kept: a cap stopped the read, not the tree's end.
  if (frontier.length > 0) {
    if (order.length >= options.maxNodes) cut(options.maxNodes);
    else cut(options.maxDepth, 'max-depth');
  }
  return { order, parentOf };
}

export function isSecret(item: { role: number }): boolean {
  return item.role === ROLE.PASSWORD_TEXT;
}

/**
 * Reads a text field's content. GTK (3 and 4) and Chromium clamp a large end, so one call with
 * the limit does (GTK 4 answers "" to end = -1); Gecko answers "" to an end past the text but
 * takes -1; Qt and LibreOffice answer "" to an end past the text, so they, and a toolkit not
 * known here, are asked for the length first. A toolkit that rejects the one call is asked too.
 */
export async function readText(client: AtspiClient, self: ObjectRef, limit = MAX_TREE_TEXT, bridge?: Bridge): Promise<string> {
  const kind = bridge?.kind;
  try {
    if (kind === 'gecko') {
      const [text] = await client.call(self, IFACE.text, 'GetText', 'ii', [0, -1]);
      return [...String(text)].slice(0, limit).join('');
    }
    if (kind !== 'qt' && kind !== 'libreoffice' && kind !== 'unknown') {
      const [text] = await client.call(self, IFACE.text, 'GetText', 'ii', [0, limit]);
      return String(text);
    }
  } catch (error) {
    if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
  }
  const count = Number(await client.property(self, IFACE.text, 'CharacterCount'));
  if (!(count > 0)) return '';
  const [text] = await client.call(self, IFACE.text, 'GetText', 'ii', [0, Math.min(count, limit)]);
  return String(text);
}

/** Tries of an element's extents while the app answers (-1, -1, -1, -1), as Firefox does to the first query after it starts. */
const EXTENTS_TRIES = 3;
const EXTENTS_RETRY_MS = 40;

export async function readExtents(client: AtspiClient, self: ObjectRef): Promise<Bounds | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const [extents] = await client.call(self, IFACE.component, 'GetExtents', 'u', [COORD_SCREEN]);
    const [x, y, width, height] = extents as number[];
    if (x === undefined || y === undefined || width === undefined || height === undefined || x === OFFSCREEN_X) return undefined;
    // (-1, -1, -1, -1) means "not laid out yet", not a place: asked again, and unknown if it stays so.
    if (!(x === -1 && y === -1 && width === -1 && height === -1)) return { x, y, width, height };
    if (attempt >= EXTENTS_TRIES) return undefined;
    await new Promise((resolve) => setTimeout(resolve, EXTENTS_RETRY_MS));
  }
}

/** Nodes synthetic input may target, and windows; other bounds are read when an action needs them. */
function wantsBounds(item: Item, mode: BoundsMode): boolean {
  if (mode === 'none' || !item.interfaces.includes(IFACE.component)) return false;
  if (mode === 'all') return true;
  const role = normalizeRole(item.role);
  return capabilities(item).length > 0 || role === 'window' || role === 'dialog' || role === 'list' || role === 'listitem';
}

/** A node's raw role and interfaces: all that decides which value it has. */
interface ValueKind {
  role: number;
  interfaces: string[];
  /** The node's own name, where known: a named cell or link already says its text (GTK cells, Gecko links). */
  name?: string;
}

function hasTextValue(item: ValueKind): boolean {
  return !isSecret(item) && TEXT_VALUE_ROLES.has(item.role) && item.interfaces.includes(IFACE.text) && item.role !== ROLE.SPIN_BUTTON;
}

/**
 * Nodes whose text is document or page content (a paragraph, a heading, a cell, a link): the
 * Text interface holds it where the name does not (Writer paragraphs, Firefox and Chromium
 * pages), so it is read as the node's value. Embedded children appear in it as U+FFFC.
 */
function hasContentText(item: ValueKind): boolean {
  // LibreOffice names a cell by its address ("A1"): its content is in Text alone.
  const named = (item.name ?? '').trim() !== '' && !(item.role === ROLE.TABLE_CELL && CELL_ADDRESS.test((item.name ?? '').trim()));
  return !named && CONTENT_TEXT_ROLES.has(item.role) && item.interfaces.includes(IFACE.text) && !TEXT_VALUE_ROLES.has(item.role);
}

const CELL_ADDRESS = /^\$?[A-Z]{1,3}\$?[0-9]{1,7}$/;

/** The object-replacement character that stands for each embedded child in a parent's text. */
const EMBEDDED_OBJECT = /\uFFFC/g;

function hasNumericValue(item: ValueKind): boolean {
  return NUMERIC_VALUE_ROLES.has(item.role) && item.interfaces.includes(IFACE.value);
}

export function hasValue(item: ValueKind): boolean {
  return hasTextValue(item) || hasNumericValue(item) || hasContentText(item);
}

/** A text or numeric widget's value as the tree holds it (text cut at MAX_TREE_TEXT and marked); {} for other nodes. */
export async function readValue(client: AtspiClient, self: ObjectRef, kind: ValueKind, bridge?: Bridge): Promise<ValueRead> {
  if (hasTextValue(kind)) {
    // One character more than is kept says whether the text goes on.
    const text = await readText(client, self, MAX_TREE_TEXT + 1, bridge);
    return text.length > MAX_TREE_TEXT ? { value: text.slice(0, MAX_TREE_TEXT), truncated: true } : { value: text };
  }
  if (hasContentText(kind)) {
    const text = (await readText(client, self, MAX_TREE_TEXT + 1, bridge)).replace(EMBEDDED_OBJECT, '').trim();
    if (text === '') return {};
    return text.length > MAX_TREE_TEXT ? { value: text.slice(0, MAX_TREE_TEXT), truncated: true } : { value: text };
  }
  if (hasNumericValue(kind)) return { value: Number(await client.property(self, IFACE.value, 'CurrentValue')) };
  return {};
}

function needsDetail(item: Item, bounds: BoundsMode): boolean {
  return hasValue(item) || wantsBounds(item, bounds);
}

async function readDetail(client: AtspiClient, item: Item, bounds: BoundsMode, bridge: Bridge): Promise<Detail> {
  const detail: Detail = {};
  const jobs: Promise<unknown>[] = [];
  if (hasValue(item)) jobs.push(readValue(client, item.self, item, bridge).then((read) => Object.assign(detail, read)));
  if (wantsBounds(item, bounds)) {
    jobs.push(readExtents(client, item.self).then((extents) => extents !== undefined && (detail.bounds = extents)));
  }
  // A node that vanished mid-fetch keeps what the cache said about it.
  await Promise.all(jobs.map((job) => job.catch(unlessFrozen(undefined))));
  return detail;
}

/** Toggles report CHECKED only while checked; an unchecked one must still say so. */
const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'togglebutton', 'switch']);

/** A node's raw role and state bits: all that decides its states and role. */
type StateKind = Pick<Item, 'role' | 'states'>;

export function statesOf(item: StateKind, gtk4: boolean): ReturnType<typeof decodeStates> {
  const states = decodeStates(item.states, { gtk4, secret: isSecret(item) });
  if (states.checked === undefined && (CHECKABLE_ROLES.has(roleOf(item)) || item.role === ROLE.CHECK_MENU_ITEM || item.role === ROLE.RADIO_MENU_ITEM))
    states.checked = false;
  return states;
}

/** GTK 4 gives single-line entries the TEXT role that multi-line views also have. */
export function roleOf(item: StateKind): ReturnType<typeof normalizeRole> {
  const role = normalizeRole(item.role);
  return role === 'textarea' && hasState(item.states, STATE.SINGLE_LINE) ? 'textfield' : role;
}

/** One node's states, decoded as the tree decodes them (one GetState call). */
export async function readStates(client: AtspiClient, self: ObjectRef, role: number, gtk4: boolean): Promise<ReturnType<typeof decodeStates>> {
  const [states] = await client.call(self, IFACE.accessible, 'GetState');
  return statesOf({ role, states: states as number[] }, gtk4);
}

/** What a model can do with a node, from its interfaces: no per-node action-name calls. */
export function capabilities(item: Item): string[] {
  const actions: string[] = [];
  if (item.interfaces.includes(IFACE.action)) actions.push('press');
  if (item.interfaces.includes(IFACE.editableText) || item.interfaces.includes(IFACE.value)) actions.push('set_value');
  if (hasState(item.states, STATE.FOCUSABLE)) actions.push('focus');
  return actions;
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
  await walkMissing(client, app, items, children, rootPath, options.maxNodes, alternates, markCut);
  await adoptOrphans(children, alternates, rootPath, (orphan) => walkMissing(client, app, items, children, orphan, options.maxNodes, alternates, markCut));
  const { order, parentOf } = breadthFirst(children, items, rootPath, options, markCut);
  if (!app.bridge.cacheNames) await refreshNames(client, items, order);
  const kept = new Set(order);
  const childrenOf = (path: string): string[] => (children.get(path) ?? []).filter((child) => kept.has(child) && parentOf.get(child) === path);
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
  const popovers = await findPopovers(windows, {
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
    const node: RawNode<AtspiRef> = {
      ref: {
        pid,
        bus,
        path,
        interfaces: item.interfaces,
        role: item.role,
        gtk4,
        ...(windowName === undefined ? {} : { window: windowName }),
        ...(popover === undefined ? {} : { popover }),
        ...(isHugeContainer(item) ? { huge: true } : {}),
      },
      role: roleOf(item),
      platformRole: `atspi:${item.role}`,
      // GTK3 pads menu item names with spaces ("Save      "); they only cost the model tokens.
      name: fix?.name ?? item.name.trim(),
      ...(fix?.nameFrom === undefined ? {} : { nameFrom: fix.nameFrom }),
      ...((fix?.description ?? item.description) === '' ? {} : { description: fix?.description ?? item.description }),
      ...((detail.value ?? fix?.value) === undefined ? {} : { value: (detail.value ?? fix?.value) as string | number }),
      ...(detail.truncated === true ? { valueTruncated: true } : {}),
      ...(fix?.placeholder === undefined ? {} : { placeholder: fix.placeholder }),
      states: path === ROOT_PATH ? { enabled: true, focused: false } : statesOf(item, gtk4),
      ...(detail.bounds === undefined
        ? {}
        : { bounds: shift === undefined ? detail.bounds : { ...detail.bounds, x: detail.bounds.x + shift.x, y: detail.bounds.y + shift.y } }),
      actions: capabilities(item),
    };
    const kids = childrenOf(path);
    if (kids.length > 0) node.children = kids.map((child) => build(child, windowName, shift, popover));
    return node;
  };
  const tree = build(rootPath, subtree?.window, undefined);
  // Said on the root, so no reader takes a cut tree for the whole one (find, tree --json, ui_tree).
  return cut === undefined ? tree : { ...tree, cut: { ...(cut as ReadCut), nodes: order.length } };
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
