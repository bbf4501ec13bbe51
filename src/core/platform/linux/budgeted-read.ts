import { IFACE, ROOT_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { RawNode } from '../../ui/ids';
import type { AccessibilityBackend, ChildRequest } from '../types';
import type { AppDirectory, AppEntry } from './apps';
import type { BridgeKind } from './bridges';
import { mapDbusError, type AtspiClient, type AtspiRef } from './client';
import { limiter } from './pool';
import { crashDuringRead } from './read-crash';
import { fetchTree, unlessFrozen } from './tree-fetch';

/**
 * AccessibilityBackend.readChildren over AT-SPI: a parent's children listed with one
 * GetChildren, and each child read on its own (role, states, interfaces, name, its value where
 * it has one, its label, and its child count), a batch of parents pipelined at once. Each node
 * is read by the whole read's own code (fetchTree of a one-node subtree), so it comes out as a
 * whole read would give it. Apps whose toolkit answers Cache.GetItems with the whole app in a
 * few milliseconds (GTK 3, GTK 4, LibreOffice) are read whole: undefined.
 */

/** Toolkits read whole: their cache is one cheap call for the whole app. */
const WHOLE_READ: ReadonlySet<BridgeKind> = new Set<BridgeKind>(['gtk3', 'gtk4', 'libreoffice']);
/** Nodes read at once: each is five or six pipelined calls, so this keeps about as many calls in flight as the whole read's walk. */
const NODES_IN_FLIGHT = 12;

/** One node as the whole read gives it, and its child count; undefined when it went away mid-read. */
async function readNode(client: AtspiClient, app: AppEntry, path: string, window: string | undefined): Promise<RawNode<AtspiRef> | undefined> {
  const self: ObjectRef = [app.bus, path];
  const [node, count] = await Promise.all([
    fetchTree(client, app, { bounds: 'none', maxNodes: 1, maxDepth: 0 }, { path, ...(window === undefined ? {} : { window }) }).catch(unlessFrozen(undefined)),
    client.property(self, IFACE.accessible, 'ChildCount').catch(unlessFrozen(0)),
  ]);
  if (node === undefined) return undefined;
  const { children: _none, ...alone } = node;
  const childCount = Number(count);
  // A container that makes its children on demand (a sheet of billions of cells) is never listed.
  return { ...alone, childCount: node.ref.huge === true || !Number.isFinite(childCount) || childCount < 0 ? 0 : childCount };
}

async function readRequest(client: AtspiClient, app: AppEntry, request: ChildRequest, limit: ReturnType<typeof limiter>): Promise<RawNode[]> {
  if (request.ref === undefined) {
    const root = await limit(() => readNode(client, app, ROOT_PATH, undefined));
    return root === undefined ? [] : [{ ...root, name: root.name === '' ? app.name : root.name, states: { enabled: true, focused: false } }];
  }
  const parent = request.ref as AtspiRef;
  if (parent.huge === true || request.count <= 0) return [];
  const [listed] = await limit(() => client.call([parent.bus, parent.path], IFACE.accessible, 'GetChildren')).catch(unlessFrozen([[]]));
  const paths = (listed as ObjectRef[]).slice(request.from, request.from + request.count).map((ref) => ref[1]);
  // A window's nodes carry its title (GTK 4 extents are relative to it); a top-level node names its own.
  const window = parent.path === ROOT_PATH ? undefined : parent.window;
  const nodes = await Promise.all(paths.map((path) => limit(() => readNode(client, app, path, window))));
  return nodes.filter((node): node is RawNode<AtspiRef> => node !== undefined);
}

export function createReadChildren(client: AtspiClient, apps: AppDirectory): NonNullable<AccessibilityBackend['readChildren']> {
  return async (pid, requests, signal) => {
    const app = await apps.get(pid);
    if (WHOLE_READ.has(app.bridge.kind)) return undefined;
    const limit = limiter(NODES_IN_FLIGHT);
    try {
      signal?.throwIfAborted();
      return await Promise.all(requests.map((request) => readRequest(client, app, request, limit)));
    } catch (error) {
      throw (await crashDuringRead(error, app)) ?? mapDbusError(error, pid);
    }
  };
}
