import { IFACE, ROOT_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { RawNode } from '../../ui/ids';
import type { AccessibilityBackend, ChildRequest } from '../types';
import type { AppDirectory, AppEntry } from './apps';
import type { BridgeKind } from './bridges';
import { mapDbusError, type AtspiClient, type AtspiRef } from './client';
import { limiter } from './pool';
import { crashDuringRead } from './read-crash';
import { relationNames, type NameFix } from './relation-names';
import { isHugeContainer } from './table-range';
import { capabilities, hasValue, readItem, readValue, roleOf, statesOf, unlessFrozen, type Item, type ValueRead } from './tree-fetch';

type Limit = ReturnType<typeof limiter>;

/**
 * AccessibilityBackend.readChildren over AT-SPI: a parent's children listed with one
 * GetChildren, and each child read on its own (role, states, interfaces, name and child count
 * in four pipelined calls, then its value where it has one and its label where it lacks a
 * name), a batch of parents pipelined at once. Each node is read and built as the whole read
 * (tree-fetch.ts) reads and builds it, so its role, name and id are the same. Apps whose toolkit answers Cache.GetItems with the whole app in a
 * few milliseconds (GTK 3, GTK 4, LibreOffice) are read whole: undefined.
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

/** Nodes by path, each with what the whole read reads for it: its item (four pipelined calls), its value, its label. */
async function readNodes(client: AtspiClient, app: AppEntry, paths: readonly string[], window: string | undefined, limit: Limit): Promise<RawNode[]> {
  const read = await Promise.all(paths.map((path, index) => limit(() => readItem(client, [app.bus, path], index, app.bridge)).catch(unlessFrozen(undefined))));
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
