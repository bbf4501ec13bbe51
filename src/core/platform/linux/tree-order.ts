/**
 * A whole read's shape without a GetChildren per parent (at-spi2-atk apps whose bridge turns it on: Chromium): every node
 * in document order from Collection.GetMatchesFrom, a page of nodes per call, then each node's
 * own read (which a walk makes anyway) gives its child count, and document order plus child
 * counts give every children list. On a 20,000-node page that is 17 calls instead of 10,000,
 * and every node's read starts at once instead of after its parent's list. Where the shape read
 * this way disagrees with a node's own Parent, the lists stop there, and the walk that follows
 * lists what is left with GetChildren, as it always did.
 */
import { NULL_PATH, ROLE, ROOT_PATH, STATE, type ObjectRef } from '../../../../native/linux/atspi';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import type { AtspiClient } from './client';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from './collection-rule';
import { sharedList } from './item';
import { mapLimit } from './pool';
import { isAppGone } from './read-crash';
import { hasState } from './states';
import { asWalked, readNode, readNodes, unlessFrozen, type AppTarget, type CacheRows, type Item, type NodeRead } from './tree-items';

/** Nodes per GetMatchesFrom: at-spi2-atk appends each match to a linked list (quadratic in a page), so pages stay small; measured 500–2,000 alike. */
export const ORDER_PAGE = 1000;
/** A rule every node matches: no states, attributes, roles or interfaces. */
const EVERY_NODE = matchRule();
/** AtspiCollectionTreeTraversalType INORDER: from a node onward, up to the collection's end. */
const TREE_INORDER = 2;

/**
 * Nodes whose reads are in flight at once (each is three or four calls), as the walk bounds them.
 * Chromium answers one call at a time on its main thread (bench/web-calls.ts, 20k page): 8 calls
 * in flight leave it waiting on the round trip (about twice its CPU per call in wall time), 32
 * keep it busy, and 128 are no faster. So more in flight buys nothing (Firefox not measured).
 */
const READS_IN_FLIGHT = 48;
/**
 * Nodes read as one call group (a promise for 16 nodes' 48 to 64 calls, not one per node); the
 * batches in flight keep READS_IN_FLIGHT nodes' calls out at once, as before.
 */
const READ_BATCH = 16;

/**
 * Every node under `root` (itself left out) in document order, or undefined when the app did
 * not answer Collection or the tree has more than `maxNodes` nodes (the caller walks instead,
 * which cuts a big tree breadth first). at-spi2-atk's in-order search, once it has run out of
 * nodes, goes over the collection's top children again: a page holding a node already listed
 * means the end, and what repeats is dropped.
 */
export async function documentOrder(client: AtspiClient, root: ObjectRef, maxNodes: number): Promise<string[] | undefined> {
  const order: string[] = [];
  const seen = new Set<string>([root[1]]);
  let from = root[1];
  // Bounded: each page lists new nodes only, and no more than maxNodes are taken.
  for (let pages = 0; pages <= Math.ceil(maxNodes / ORDER_PAGE); pages += 1) {
    let page: ObjectRef[];
    try {
      [page] = (await client.call(root, COLLECTION, 'GetMatchesFrom', `o${RULE}uuib`, [from, EVERY_NODE, SORT_CANONICAL, TREE_INORDER, ORDER_PAGE, true])) as [
        ObjectRef[],
      ];
    } catch (error) {
      if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
      return undefined;
    }
    let repeated = false;
    for (const ref of page) {
      const path = ref[1];
      if (ref[0] !== root[0] || seen.has(path)) {
        repeated ||= seen.has(path);
        continue;
      }
      seen.add(path);
      order.push(path);
    }
    if (order.length > maxNodes) return undefined;
    const last = page[page.length - 1];
    if (repeated || page.length < ORDER_PAGE || last === undefined) return order;
    from = last[1];
  }
  return undefined;
}

/**
 * Children lists from document order and child counts: each node goes under the nearest
 * earlier node that still has a child to place. The lists stop at the first node that shows the
 * page changed between the order and the reads, and the walk lists the rest with GetChildren
 * (a list shorter than its parent's count is listed again): a node that names another parent; a
 * node whose read failed or that is defunct (gone since the order was read: Gecko drops the
 * about:blank document when the page's own replaces it, and a gone node still taking its
 * parent's one slot would keep the new document out of the tree, and out of every mirror
 * patched from that read); a node that names no parent below the top level (only top-level
 * windows name none: Chromium's say null).
 */
export function shapeFromOrder(
  rootPath: string,
  order: readonly string[],
  items: Map<string, Item>,
  parents: ReadonlyMap<string, string | undefined>,
): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  const rootCount = items.get(rootPath)?.childCount ?? -1;
  const open: { path: string; left: number }[] = [{ path: rootPath, left: rootCount < 0 ? Infinity : rootCount }];
  for (const path of order) {
    while (open.length > 0 && (open[open.length - 1] as { left: number }).left <= 0) open.pop();
    const parent = open[open.length - 1];
    const item = items.get(path);
    if (parent === undefined || item === undefined || !Number.isInteger(item.childCount) || hasState(item.states, STATE.DEFUNCT)) break;
    const named = parents.get(path);
    if (named === NULL_PATH ? parent.path !== rootPath : named !== undefined && named !== parent.path) break;
    parent.left -= 1;
    const list = lists.get(parent.path);
    if (list === undefined) lists.set(parent.path, [path]);
    else list.push(path);
    open.push({ path, left: Math.max(0, item.childCount) });
  }
  return lists;
}

/** Roles a browser replaces whole when a page loads or navigates. */
const DOCUMENT_ROLES: ReadonlySet<number> = new Set([ROLE.DOCUMENT_WEB, ROLE.DOCUMENT_FRAME]);

/**
 * The lists that hold a document are left to the walk (one GetChildren per document). Gecko
 * replaces a tab's first document (about:blank) with the page's own as the page loads, and the
 * old one still answers every read as it was listed (same Parent, not defunct; measured on
 * Firefox ESR 153: name "", ChildCount 0, states SHOWING and VISIBLE), so an order read before
 * the swap and node reads after it can give the frame its one child, the empty old document: the
 * read would not ask again, and a mirror loaded from it would not hear of the new document. Its
 * parent's GetChildren, asked after the order, names the document that is there now.
 */
export function withoutDocumentSlots(lists: Map<string, string[]>, items: ReadonlyMap<string, Item>): Map<string, string[]> {
  for (const [parent, list] of lists) if (list.some((path) => DOCUMENT_ROLES.has(items.get(path)?.role ?? -1))) lists.delete(parent);
  return lists;
}

/**
 * Each object's interfaces, by app and path, from the last whole read. at-spi2-atk answers
 * GetInterfaces from the object's type, which never changes, and never gives a path to a
 * second object (its paths count up), so a whole read asks each node once in the app's life:
 * the next read of a 20,000-node page makes three calls a node, not four.
 */
const interfacesSeen = new WeakMap<AtspiClient, Map<string, Map<string, string[]>>>();
/** Apps remembered per client: a long-lived process sees apps come and go. */
const MAX_APPS = 16;

function knownInterfaces(client: AtspiClient, bus: string): Map<string, string[]> {
  return interfacesSeen.get(client)?.get(bus) ?? new Map();
}

function rememberInterfaces(client: AtspiClient, bus: string, interfaces: Map<string, string[]>): void {
  let apps = interfacesSeen.get(client);
  if (apps === undefined) interfacesSeen.set(client, (apps = new Map()));
  apps.delete(bus);
  apps.set(bus, interfaces);
  for (const oldest of apps.keys()) if (apps.size > MAX_APPS) apps.delete(oldest);
}

/**
 * Reads a whole app in document order where its bridge has Collection: every node the cache
 * did not give is read, and `children` gets the lists the order gives. False when the order
 * could not be had; `items` and `children` are then as they were. `known` rows (Gecko's cache,
 * which the walk also takes instead of a node's own read) stand in for the read of their node,
 * their parent checked against the order like any node's.
 */
export async function readInOrder(
  client: AtspiClient,
  { bus, bridge }: AppTarget,
  items: Map<string, Item>,
  children: Map<string, string[]>,
  maxNodes: number,
  knownRows?: CacheRows | Promise<CacheRows>,
): Promise<boolean> {
  const [order, known] = await Promise.all([documentOrder(client, [bus, ROOT_PATH], maxNodes - 1), knownRows]);
  if (order === undefined) return false;
  const parents = new Map<string, string | undefined>();
  const cached = new Set<string>();
  for (const path of order) {
    const row = items.get(path);
    if (row === undefined) continue;
    cached.add(path);
    parents.set(path, row.parentPath);
  }
  const unread = order.filter((path) => !items.has(path));
  const kept = knownInterfaces(client, bus);
  const interfaces = new Map<string, string[]>();
  // One handler for every node's read, not one made per node.
  const skipUnlessFrozen = unlessFrozen(undefined);
  const keep = (path: string, read: NodeRead | undefined, had: string[] | undefined): void => {
    // A node gone since the order was read is skipped, as the walk skips it.
    if (read === undefined) return;
    // A list kept from the last read is already the shared one: not joined into a key again per node.
    if (read.item.interfaces !== had) read.item.interfaces = sharedList(read.item.interfaces);
    interfaces.set(path, read.item.interfaces);
    items.set(path, read.item);
    parents.set(path, read.parent);
  };
  if (bridge.getAll && !client.callByCall) {
    // Nodes read a batch to a call group, one promise a batch (tree-items.ts' readNodes).
    const batches: string[][] = [];
    for (const path of unread) {
      const row = known?.get(path);
      if (row !== undefined && row.childCount >= 0) keep(path, { item: asWalked(row, 0), parent: row.parentPath }, kept.get(path));
      else if ((batches[batches.length - 1]?.length ?? READ_BATCH) < READ_BATCH) (batches[batches.length - 1] as string[]).push(path);
      else batches.push([path]);
    }
    await mapLimit(batches, READS_IN_FLIGHT / READ_BATCH, async (batch) => {
      const had = batch.map((path) => kept.get(path));
      const reads = await readNodes(client, bus, batch, had, bridge);
      for (let node = 0; node < batch.length; node += 1) {
        const read = reads[node];
        keep(batch[node] as string, read instanceof Error ? skipUnlessFrozen(read) : read, had[node]);
      }
    });
  } else
    await mapLimit(unread, READS_IN_FLIGHT, async (path) => {
      const row = known?.get(path);
      const had = kept.get(path);
      const read =
        row !== undefined && row.childCount >= 0
          ? { item: asWalked(row, 0), parent: row.parentPath }
          : await readNode(client, [bus, path], 0, bridge, had).catch(skipUnlessFrozen);
      keep(path, read, had);
    });
  // Only the nodes of this read are remembered: the map is as big as the app's tree, no bigger.
  rememberInterfaces(client, bus, interfaces);
  for (const [parent, list] of withoutDocumentSlots(shapeFromOrder(ROOT_PATH, order, items, parents), items)) {
    children.set(parent, list);
    // A node read here takes its place in the list; the cache's rows keep theirs.
    list.forEach((path, index) => {
      const item = items.get(path);
      if (item !== undefined && !cached.has(path)) item.index = index;
    });
  }
  return true;
}
