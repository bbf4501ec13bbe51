import { IFACE, NULL_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { MirrorUntrusted, type MirrorReader, type Relayout } from './mirror';
import { FULL_READ_MAX_NODES } from '../../ui/read-cut';
import { cacheRows, fetchTree, hasValue, readExtents, readStates, readValue, unlessFrozen, type AppTarget } from './tree-fetch';
import type { Role } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import { GUESSED_ROLES } from '../../ui/infer-names';
import type { AtspiRef } from './client';
import { geometryNames } from './geometry-names';
import { isUnnamed, type NamedItem, type NameFix } from './relation-names';

/** Subtrees a patch reads may be as large as a whole app; the mirror's own cap catches the rest. */
const SUBTREE_MAX_NODES = FULL_READ_MAX_NODES;

/**
 * The mirror reads through the same fetch a full read uses, started at the changed node, so a
 * patched node carries exactly the fields a full read would give it. Bounds are never read:
 * they move without events (a window drag), so a tree with bounds is always read whole.
 */
export function mirrorReader(client: AtspiClient, app: AppTarget): MirrorReader {
  return {
    node: async (path, window) => {
      // One node, read with a depth of 0: its `cut` says only that its children were not read.
      const {
        children: _children,
        cut: _cut,
        ...node
      } = await fetchTree(client, app, { bounds: 'none', maxNodes: 1, maxDepth: 0 }, { path, ...(window === undefined ? {} : { window }) });
      return node;
    },
    subtree: async (path, window, maxDepth, rows) => {
      const { cut, ...tree } = await fetchTree(
        client,
        app,
        { bounds: 'none', maxNodes: SUBTREE_MAX_NODES, maxDepth },
        { path, ...(window === undefined ? {} : { window }), ...(rows === undefined ? {} : { rows }) },
      );
      // A cut patch would graft a partial subtree into a tree that claims to be whole: read it all again instead.
      if (cut !== undefined) throw new MirrorUntrusted('too-large', `the subtree at ${path} was cut (${cut.reason})`);
      return tree;
    },
    children: async (path) => {
      const [refs] = await client.call([app.bus, path], IFACE.accessible, 'GetChildren');
      return (refs as ObjectRef[]).map((ref) => ref[1]);
    },
    parent: async (path) => {
      const [owner, parentPath] = ((await client.property([app.bus, path], IFACE.accessible, 'Parent')) ?? []) as Partial<ObjectRef>;
      return owner === app.bus && parentPath !== undefined && parentPath !== '' && parentPath !== NULL_PATH ? parentPath : undefined;
    },
    // The fetch decides on the node's own name, before any label named it.
    hasValue: (node) => hasValue(ownKind(node)),
    value: (node) => readValue(client, [app.bus, node.ref.path], ownKind(node), app.bridge),
    rows: () => cacheRows(client, app.bus, app.bridge),
    states: (node) => readStates(client, [app.bus, node.ref.path], node.ref.role, app.gtk4),
    // Chromium sends state-changed for page and UI nodes alike (AXPlatformNodeAuraLinux), which its cache leaves out.
    walkedStatesAnnounced: app.bridge.kind === 'chromium' ? true : app.bridge.kind === 'libreoffice' ? 'outside-ranges' : false,
    relayout: (root, rawName) => relayout(client, app.bus, root, rawName),
  };
}

function ownKind(node: RawNode<AtspiRef>): { role: number; interfaces: string[]; name: string } {
  return { role: node.ref.role, interfaces: node.ref.interfaces, name: node.nameFrom === undefined ? node.name : '' };
}

/** The full read's layout naming (geometry-names.ts) over a mirrored tree: extents read now, names as they stand. */
async function relayout(client: AtspiClient, bus: string, root: RawNode<AtspiRef>, rawName: (node: RawNode<AtspiRef>) => string): Promise<Relayout> {
  const items = new Map<string, NamedItem>();
  const nodes = new Map<string, RawNode<AtspiRef>>();
  const parents = new Map<string, string>();
  const order: string[] = [];
  let frontier = [root];
  while (frontier.length > 0) {
    for (const node of frontier) {
      const path = node.ref.path;
      nodes.set(path, node);
      order.push(path);
      items.set(path, { self: [bus, path], name: rawName(node), role: node.ref.role, description: node.description ?? '', interfaces: node.ref.interfaces });
      for (const child of node.children ?? []) parents.set(child.ref.path, path);
    }
    frontier = frontier.flatMap((node) => node.children ?? []);
  }
  const roleOf = (item: NamedItem): Role => nodes.get(item.self[1])?.role ?? 'unknown';
  const candidates = order.filter((path) => {
    const item = items.get(path) as NamedItem;
    const node = nodes.get(path) as RawNode<AtspiRef>;
    return GUESSED_ROLES.has(roleOf(item)) && isUnnamed(item.name) && (node.nameFrom === undefined || node.nameFrom === 'geometry');
  });
  const fixes = new Map<string, NameFix>();
  await geometryNames(items, candidates, fixes, {
    parentOf: (path) => parents.get(path),
    childrenOf: (path) => (nodes.get(path)?.children ?? []).map((child) => child.ref.path),
    extentsOf: (path) => readExtents(client, [bus, path]).catch(unlessFrozen(undefined)),
    roleOf,
  });
  const names = new Map<string, string>();
  for (const [path, fix] of fixes) if (fix.nameFrom === 'geometry' && fix.name !== undefined) names.set(path, fix.name);
  return { candidates, names };
}
