import { IFACE, ROLE, ROOT_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { RawNode } from '../../ui/ids';
import type { AccessibilityBackend, ChildRequest } from '../types';
import type { AppDirectory, AppEntry } from './apps';
import type { Bridge, BridgeKind } from './bridges';
import { mapDbusError, type AtspiClient, type AtspiRef } from './client';
import { limiter } from './pool';
import { crashDuringRead } from './read-crash';
import { relationNames, type NameFix } from './relation-names';
import { isHugeContainer } from './table-range';
import { CONTENT_TEXT_ROLES, NUMERIC_VALUE_ROLES, TEXT_VALUE_ROLES } from './roles';
import { capabilities, hasValue, readValue, roleOf, statesOf, unlessFrozen, type Item, type ValueRead } from './tree-fetch';
import { accessibleProperties } from './tree-items';

type Limit = ReturnType<typeof limiter>;

/**
 * AccessibilityBackend.readChildren over AT-SPI: a parent's children listed with one
 * GetChildren, and each child read on its own (role, states, and name with child count in
 * three pipelined calls; its interfaces only where its role can carry a value, then that value,
 * and its label where it lacks a name), a batch of parents pipelined at once. Each node's
 * role, name, states and value are read and built as the whole read (tree-fetch.ts) builds
 * them, so its id is the same. What the text form does not print is not read: the interfaces
 * of a node that cannot hold a value (its `actions` then list only focus); an action resolves
 * its target through a whole read, never through these nodes' refs. Apps whose toolkit answers
 * Cache.GetItems with the whole app in a few milliseconds (GTK 3, GTK 4, LibreOffice) are
 * read whole: undefined.
 */

/** Toolkits read whole: their cache is one cheap call for the whole app. */
const WHOLE_READ: ReadonlySet<BridgeKind> = new Set<BridgeKind>(['gtk3', 'gtk4', 'libreoffice']);
/** Nodes read at once: each is four pipelined calls, so this keeps about as many calls in flight as the whole read's walk. */
const NODES_IN_FLIGHT = 16;

/** A node as the whole read builds it (tree-fetch.ts), from its item, its value and its label. */
function nodeOf(app: AppEntry, item: Item, window: string | undefined, value: ValueRead, fix: NameFix | undefined): RawNode<AtspiRef> {
  const path = item.self[1];
  const topLevel = window === undefined && path !== ROOT_PATH;
  const windowName = topLevel ? item.name : window;
  const description = fix?.description ?? item.description;
  const shown = value.value ?? fix?.value;
  return {
    ref: {
      pid: app.pid,
      bus: app.bus,
      path,
      interfaces: item.interfaces,
      role: item.role,
      gtk4: app.gtk4,
      ...(windowName === undefined ? {} : { window: windowName }),
      ...(isHugeContainer(item) ? { huge: true } : {}),
    },
    role: roleOf(item),
    platformRole: `atspi:${item.role}`,
    name: fix?.name ?? item.name.trim(),
    ...(fix?.nameFrom === undefined ? {} : { nameFrom: fix.nameFrom }),
    ...(description === '' ? {} : { description }),
    ...(shown === undefined ? {} : { value: shown }),
    ...(value.truncated === true ? { valueTruncated: true } : {}),
    ...(fix?.placeholder === undefined ? {} : { placeholder: fix.placeholder }),
    states: path === ROOT_PATH ? { enabled: true, focused: false } : statesOf(item, app.gtk4),
    actions: capabilities(item),
    // A container that makes its children on demand (a sheet of billions of cells) is never listed.
    childCount: isHugeContainer(item) || !(item.childCount > 0) ? 0 : item.childCount,
  };
}

/** Whether a node of this role and name can carry a value the text form prints: only then are its interfaces asked for. */
export function mayHoldValue(role: number, name: string): boolean {
  const named = name.trim() !== '' && !(role === ROLE.TABLE_CELL && CELL_ADDRESS.test(name.trim()));
  return TEXT_VALUE_ROLES.has(role) || NUMERIC_VALUE_ROLES.has(role) || (CONTENT_TEXT_ROLES.has(role) && !named);
}

/** A sheet names a cell by its address ("B3"): its content is in Text alone, as tree-fetch.ts reads it. */
const CELL_ADDRESS = /^\$?[A-Z]{1,3}\$?[0-9]{1,7}$/;

/**
 * One node as the text form needs it: role, states, and name with child count in three
 * pipelined calls; its interfaces (a fourth, after the role) only where they decide a value.
 */
export async function readTextItem(client: AtspiClient, self: ObjectRef, index: number, bridge: Bridge): Promise<Item> {
  const [[role], [states], { name, description, childCount }] = await Promise.all([
    client.call(self, IFACE.accessible, 'GetRole'),
    client.call(self, IFACE.accessible, 'GetState'),
    accessibleProperties(client, self, bridge),
  ]);
  const text = String(name ?? '');
  const [interfaces] = mayHoldValue(Number(role), text) ? await client.call(self, IFACE.accessible, 'GetInterfaces') : [[]];
  return {
    self,
    index,
    childCount: Number(childCount),
    interfaces: interfaces as string[],
    name: text,
    role: Number(role),
    description: String(description ?? ''),
    states: states as number[],
  };
}

/** Nodes by path, each with what the text form prints: its item (three or four pipelined calls), its value, its label. */
async function readNodes(client: AtspiClient, app: AppEntry, paths: readonly string[], window: string | undefined, limit: Limit): Promise<RawNode[]> {
  const read = await Promise.all(
    paths.map((path, index) => limit(() => readTextItem(client, [app.bus, path], index, app.bridge)).catch(unlessFrozen(undefined))),
  );
  const items = read.filter((item): item is Item => item !== undefined);
  const byPath = new Map(items.map((item) => [item.self[1], item]));
  const [values, names] = await Promise.all([
    Promise.all(
      items.map((item) => (hasValue(item) ? limit(() => readValue(client, item.self, item, app.bridge)).catch(unlessFrozen({})) : Promise.resolve({}))),
    ),
    relationNames(client, byPath, [...byPath.keys()], (item) => roleOf(item as Item), app.gtk4),
  ]);
  return items.map((item, index) => nodeOf(app, item, window, values[index] ?? {}, names.get(item.self[1])));
}

async function readRequest(client: AtspiClient, app: AppEntry, request: ChildRequest, limit: Limit): Promise<RawNode[]> {
  if (request.ref === undefined) {
    const [root] = await readNodes(client, app, [ROOT_PATH], undefined, limit);
    return root === undefined ? [] : [{ ...root, name: root.name === '' ? app.name : root.name }];
  }
  const parent = request.ref as AtspiRef;
  if (parent.huge === true || request.count <= 0) return [];
  const [listed] = await limit(() => client.call([parent.bus, parent.path], IFACE.accessible, 'GetChildren')).catch(unlessFrozen([[]]));
  const paths = (listed as ObjectRef[]).slice(request.from, request.from + request.count).map((ref) => ref[1]);
  // A window's nodes carry its title (GTK 4 extents are relative to it); a top-level node names its own.
  return readNodes(client, app, paths, parent.path === ROOT_PATH ? undefined : parent.window, limit);
}

export function createReadChildren(client: AtspiClient, apps: AppDirectory): NonNullable<AccessibilityBackend['readChildren']> {
  return async (pid, requests, signal) => {
    const app = await apps.get(pid);
    if (WHOLE_READ.has(app.bridge.kind)) return undefined;
    const limit: Limit = limiter(NODES_IN_FLIGHT);
    try {
      signal?.throwIfAborted();
      return await Promise.all(requests.map((request) => readRequest(client, app, request, limit)));
    } catch (error) {
      throw (await crashDuringRead(error, app)) ?? mapDbusError(error, pid);
    }
  };
}
