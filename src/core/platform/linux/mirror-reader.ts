import { IFACE, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import type { MirrorReader } from './mirror';
import { cacheRows, fetchTree, hasValue, readStates, readValue, type AppTarget } from './tree-fetch';

/** Subtrees a patch reads may be as large as a whole app; the mirror's own cap catches the rest. */
const SUBTREE_MAX_NODES = 5000;

/**
 * The mirror reads through the same fetch a full read uses, started at the changed node, so a
 * patched node carries exactly the fields a full read would give it. Bounds are never read:
 * they move without events (a window drag), so a tree with bounds is always read whole.
 */
export function mirrorReader(client: AtspiClient, app: AppTarget): MirrorReader {
  return {
    node: async (path, window) => {
      const { children: _children, ...node } = await fetchTree(
        client,
        app,
        { bounds: 'none', maxNodes: 1, maxDepth: 0 },
        { path, ...(window === undefined ? {} : { window }) },
      );
      return node;
    },
    subtree: (path, window, maxDepth) =>
      fetchTree(client, app, { bounds: 'none', maxNodes: SUBTREE_MAX_NODES, maxDepth }, { path, ...(window === undefined ? {} : { window }) }),
    children: async (path) => {
      const [refs] = await client.call([app.bus, path], IFACE.accessible, 'GetChildren');
      return (refs as ObjectRef[]).map((ref) => ref[1]);
    },
    hasValue: (node) => hasValue(node.ref),
    value: (node) => readValue(client, [app.bus, node.ref.path], node.ref),
    rows: () => cacheRows(client, app.bus),
    states: (node) => readStates(client, [app.bus, node.ref.path], node.ref.role, app.gtk4),
    childCount: async (node) => Number(await client.property([app.bus, node.ref.path], IFACE.accessible, 'ChildCount')),
  };
}
