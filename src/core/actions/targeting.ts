import type { Bounds, UiNode } from '../../shared/ui-node';
import type { AccessibilityBackend, AppListing, Point } from '../platform/types';
import { checkPointOwner } from './point-owner';
import type { BuiltTree } from '../ui/ids';
import type { IndexedNode } from '../ui/tree-index';
import { intersect } from '../platform/window-image';
import { centerOf } from './geometry';

/** Containers that clip what is inside them: a point outside their bounds is not on the node. */
const CLIPPING_ROLES = new Set<UiNode['role']>(['scrollarea', 'list', 'tree', 'table', 'window', 'dialog']);

export interface TargetTree {
  tree: BuiltTree;
  index: Map<string, IndexedNode>;
  /** The app the input is for: the point is checked to be on its window before input goes there. */
  owner?: { pid: number; apps: AppListing };
}

async function boundsOf(accessibility: AccessibilityBackend, target: TargetTree, node: UiNode): Promise<Bounds | undefined> {
  if (node.bounds !== undefined || accessibility.bounds === undefined) return node.bounds;
  return accessibility.bounds(target.tree.refs.get(node.id), node);
}

/** Extents a toolkit gives for "unknown" (Gecko's -1s, an empty box) say nothing about where a node is. */
function usable(bounds: Bounds | undefined): bounds is Bounds {
  return bounds !== undefined && bounds.width > 0 && bounds.height > 0;
}

/**
 * Where synthetic input should land on a node: the centre of the part of it that is on
 * screen. A scrolled list's bounds run far past its viewport (a GTK list of 200 rows is
 * 5,800 px tall), so the node is clipped by its scrolling and window ancestors first.
 * Whether it is on screen is decided by these extents alone, never by a showing flag a
 * toolkit may leave unset (Gecko): an ancestor with unusable extents, or extents that miss
 * the node's window altogether (another coordinate space), clips nothing.
 * Bounds a tree was fetched without are read here, for these few nodes only. With `owner`, the
 * point must be on that app's own window (see checkPointOwner), or no input goes there.
 */
export async function visiblePoint(accessibility: AccessibilityBackend, target: TargetTree, node: UiNode): Promise<Point> {
  const own = await boundsOf(accessibility, target, node);
  if (!usable(own)) return centerOf({ ...node, states: { ...node.states, visible: true }, ...(own === undefined ? {} : { bounds: own }) });
  const clips: { bounds: Bounds; window: boolean }[] = [];
  for (let parentId = target.index.get(node.id)?.parentId; parentId !== undefined;) {
    const parent = target.index.get(parentId);
    if (parent === undefined) break;
    if (CLIPPING_ROLES.has(parent.node.role)) {
      const clip = await boundsOf(accessibility, target, parent.node);
      const window = parent.node.role === 'window' || parent.node.role === 'dialog';
      if (usable(clip)) clips.push({ bounds: clip, window });
      if (window) break;
    }
    parentId = parent.parentId;
  }
  const window = clips.find((clip) => clip.window)?.bounds;
  let bounds = own;
  for (const clip of clips) {
    // A clip that misses the window is in some other coordinate space, not a viewport.
    if (window !== undefined && !clip.window && intersect(clip.bounds, window).width === 0) continue;
    bounds = intersect(bounds, clip.bounds);
  }
  const point = centerOf({ ...node, states: { ...node.states, visible: true }, bounds });
  if (target.owner !== undefined) await checkPointOwner(target.owner.apps, target.owner.pid, point);
  return point;
}
