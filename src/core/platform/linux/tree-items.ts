/**
 * What a tree read knows of one node (Item), and where it comes from: a row of the app's
 * Cache.GetItems, or four pipelined calls (readItem) for a node the cache leaves out.
 */
import { CACHE_PATH, IFACE, type CacheItem, type ObjectRef } from '../../../../native/linux/atspi';
import { DbusTimeoutError, PropertyPick, type MethodCall, type Reading } from '../../../../native/linux/dbus';
import type { AtspiClient } from './client';
import type { Bridge } from './bridges';
import { isAppGone } from './read-crash';
import type { Item } from './item';
import { readKeptItem } from './kept-reads';

export type { Item } from './item';

export interface AppTarget {
  pid: number;
  bus: string;
  name: string;
  gtk4: boolean;
  /** Which calls the app's toolkit bridge takes without harm. */
  bridge: Bridge;
}

/** One row of the app's cache, with its place in GetItems' answer (which orders children whose index is -1). */
export interface CacheRow extends Item {
  position: number;
}

export type CacheRows = Map<string, CacheRow>;

/** Cache.GetItems: one call for an app's whole tree, where the toolkit implements it (GTK3, GTK4). */
export async function cachedItems(client: AtspiClient, bus: string, bridge: Pick<Bridge, 'cache'>): Promise<Item[]> {
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

export function rowsOf(items: Item[]): CacheRows {
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
export function descendants(byParent: Map<string, string[]>, root: string): string[] {
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
/** What a node's read takes of its Accessible properties, in this order. */
const ACCESSIBLE_PICK = new PropertyPick(['Name', 'Description', 'ChildCount', 'Parent']);

/**
 * A node's name, description and child count in one Properties.GetAll, where the toolkit's
 * bridge is known to answer it (GTK 3, GTK 4, Gecko, Chromium, LibreOffice); three Gets
 * otherwise: GetAll crashes Qt 5 and Qt 6 apps.
 */
export async function accessibleProperties(
  client: AtspiClient,
  self: ObjectRef,
  bridge: Bridge,
): Promise<{ name: unknown; description: unknown; childCount: unknown; parent?: unknown }> {
  if (bridge.getAll)
    try {
      // The client reads only these four of the reply (Chromium sends seven, its Attributes a
      // dictionary); call by call, GetAll comes whole through call.
      let name: unknown, description: unknown, childCount: unknown, parent: unknown;
      if (!client.callByCall) [name, description, childCount, parent] = await client.properties(self, IFACE.accessible, ACCESSIBLE_PICK);
      else {
        const [all] = await client.call(self, PROPERTIES, 'GetAll', 's', [IFACE.accessible]);
        const value = (key: string): unknown => (all as Record<string, { value?: unknown } | undefined>)[key]?.value;
        [name, description, childCount, parent] = ACCESSIBLE_PICK.names.map(value);
      }
      if (childCount !== undefined) return { name, description, childCount, parent };
    } catch (error) {
      if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
    }
  const [name, description, childCount] = await Promise.all(
    ['Name', 'Description', 'ChildCount'].map((property) => client.property(self, IFACE.accessible, property)),
  );
  return { name, description, childCount };
}

/** A node's record from the D-Bus answers about it, each coerced to its type. */
export function itemOf(
  self: ObjectRef,
  index: number,
  role: unknown,
  states: unknown,
  interfaces: unknown,
  { name, description, childCount }: { name: unknown; description: unknown; childCount: unknown },
): Item {
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

/** Everything the tree needs about one node, in four pipelined calls. */
export async function readItem(client: AtspiClient, self: ObjectRef, index: number, bridge: Bridge): Promise<Item> {
  if (bridge.keptInterfaces) return readKeptItem(client, self, index);
  return (await readNode(client, self, index, bridge)).item;
}

/**
 * readItem, plus the parent the node names itself (where GetAll answered: its Parent property),
 * to check a tree's shape against. Interfaces already known for this object are not asked again.
 */
export async function readNode(
  client: AtspiClient,
  self: ObjectRef,
  index: number,
  bridge: Bridge,
  knownInterfaces?: string[],
): Promise<{ item: Item; parent: string | undefined }> {
  if (bridge.getAll && !client.callByCall) return readNodeGrouped(client, self, index, bridge, knownInterfaces);
  const [[role], [states], [interfaces], { name, description, childCount, parent }] = await Promise.all([
    client.call(self, IFACE.accessible, 'GetRole'),
    client.call(self, IFACE.accessible, 'GetState'),
    knownInterfaces === undefined ? client.call(self, IFACE.accessible, 'GetInterfaces') : [knownInterfaces],
    accessibleProperties(client, self, bridge),
  ]);
  const item = itemOf(self, index, role, states, interfaces, { name, description, childCount });
  return { item, parent: Array.isArray(parent) && typeof parent[1] === 'string' ? parent[1] : undefined };
}

const ACCESSIBLE_BODY: readonly unknown[] = [IFACE.accessible];

/** What readNode learns of a node: its item, and the parent it names itself. */
export interface NodeRead {
  item: Item;
  parent: string | undefined;
}

async function readNodeGrouped(client: AtspiClient, self: ObjectRef, index: number, bridge: Bridge, knownInterfaces: string[] | undefined): Promise<NodeRead> {
  const [read] = await readNodes(client, self[0], [self[1]], [knownInterfaces], bridge);
  if (read instanceof Error) throw read;
  (read as NodeRead).item.index = index;
  return read as NodeRead;
}

/**
 * readNode of several nodes of one app (the real client's callGroup): every node's GetRole,
 * GetState, GetAll (picked) and GetInterfaces (unless known) sent as one group and answered with
 * one promise, instead of a promise per call, a Promise.all and an async step per node. Each slot
 * is the node's read (at index 0: the caller places it), or the Error readNode would have thrown:
 * the first of GetRole, GetState and GetInterfaces to fail (the app answers in order); a GetAll
 * frozen or gone; else a GetAll that failed or had no ChildCount costs three Gets, as before.
 */
export async function readNodes(
  client: AtspiClient,
  bus: string,
  paths: readonly string[],
  knownInterfaces: readonly (string[] | undefined)[],
  bridge: Bridge,
): Promise<(NodeRead | Error)[]> {
  const calls: MethodCall[] = [];
  const readings: Reading[] = [];
  for (let node = 0; node < paths.length; node += 1) {
    const path = paths[node] as string;
    calls.push(
      { destination: bus, path, interface: IFACE.accessible, member: 'GetRole' },
      { destination: bus, path, interface: IFACE.accessible, member: 'GetState' },
      { destination: bus, path, interface: PROPERTIES, member: 'GetAll', signature: 's', body: ACCESSIBLE_BODY as unknown[] },
    );
    readings.push('body', 'body', ACCESSIBLE_PICK);
    if (knownInterfaces[node] === undefined) {
      calls.push({ destination: bus, path, interface: IFACE.accessible, member: 'GetInterfaces' });
      readings.push('body');
    }
  }
  const answers = await client.callGroup(bus, calls, readings);
  const reads = new Array<NodeRead | Error>(paths.length);
  // Nodes whose GetAll gave no properties: their three Gets go out together, as node-by-node reads
  // sent them, so a frozen app costs the batch one timeout, not one per node.
  const fallbacks: Promise<void>[] = [];
  let at = 0;
  for (let node = 0; node < paths.length; node += 1) {
    const self: ObjectRef = [bus, paths[node] as string];
    const known = knownInterfaces[node];
    const role = answers[at];
    const states = answers[at + 1];
    const all = answers[at + 2];
    const interfaces = known === undefined ? answers[at + 3] : [known];
    at += known === undefined ? 4 : 3;
    const failed = role instanceof Error ? role : states instanceof Error ? states : interfaces instanceof Error ? interfaces : undefined;
    if (failed !== undefined) {
      reads[node] = failed;
      continue;
    }
    let properties: { name: unknown; description: unknown; childCount: unknown; parent?: unknown } | undefined;
    if (all instanceof Error) {
      if (all instanceof DbusTimeoutError || isAppGone(all)) {
        reads[node] = all;
        continue;
      }
    } else {
      const [name, description, childCount, parent] = all as unknown[];
      if (childCount !== undefined) properties = { name, description, childCount, parent };
    }
    const roleValue = (role as unknown[])[0];
    const statesValue = (states as unknown[])[0];
    const interfacesValue = (interfaces as unknown[])[0];
    if (properties !== undefined) reads[node] = nodeRead(self, roleValue, statesValue, interfacesValue, properties);
    else
      fallbacks.push(
        accessibleProperties(client, self, { ...bridge, getAll: false }).then(
          (found) => void (reads[node] = nodeRead(self, roleValue, statesValue, interfacesValue, found)),
          (error: unknown) => void (reads[node] = error instanceof Error ? error : new Error(String(error))),
        ),
      );
  }
  if (fallbacks.length > 0) await Promise.all(fallbacks);
  return reads;
}

/** A node's read from its role, states and interfaces (GetRole's, GetState's, GetInterfaces' answers) and its properties. */
function nodeRead(
  self: ObjectRef,
  role: unknown,
  states: unknown,
  interfaces: unknown,
  properties: { name: unknown; description: unknown; childCount: unknown; parent?: unknown },
): NodeRead {
  const item = itemOf(self, 0, role, states, interfaces, properties);
  const parent = properties.parent;
  return { item, parent: Array.isArray(parent) && typeof parent[1] === 'string' ? parent[1] : undefined };
}

/** Whether the cache puts a node under another parent that is itself in the tree (then it belongs there, not here). */
export function placedElsewhere(cacheParent: string | undefined, here: string, known: (path: string) => boolean): boolean {
  return cacheParent !== undefined && cacheParent !== here && known(cacheParent);
}

/** A cache row as the walk would have read the node: placed where GetChildren listed it, not where the cache says. */
export function asWalked(row: CacheRow, index: number): Item {
  const { self, childCount, interfaces, name, role, description, states } = row;
  return { self, index, childCount, interfaces, name, role, description, states };
}
