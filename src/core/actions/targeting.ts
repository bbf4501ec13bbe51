import type { Bounds, UiNode } from '../../shared/ui-node';
import type { AccessibilityBackend, Point } from '../platform/types';
import type { BuiltTree } from '../ui/ids';
import type { IndexedNode } from '../ui/tree-index';
import { intersect } from '../platform/window-image';
import { centerOf } from './geometry';

/** Containers that clip what is inside them: a point outside their bounds is not on the node. */
const CLIPPING_ROLES = new Set<UiNode['role']>(['scrollarea', 'list', 'tree', 'table', 'window', 'dialog']);

export interface TargetTree {
  tree: BuiltTree;
  index: Map<string, IndexedNode>;
}

async function boundsOf(accessibility: AccessibilityBackend, target: TargetTree, node: UiNode): Promise<Bounds | undefined> {
  if (node.bounds !== undefined || accessibility.bounds === undefined) return node.bounds;
  return accessibility.bounds(target.tree.refs.get(node.id), node);
}

/**
 * Where synthetic input should land on a node: the centre of the part of it that is on
 * screen. A scrolled list's bounds run far past its viewport (a GTK list of 200 rows is
 * 5,800 px tall), so the node is clipped by its scrolling and window ancestors first.
 * Bounds a tree was fetched without are read here, for these few nodes only.
 */
export async function visiblePoint(accessibility: AccessibilityBackend, target: TargetTree, node: UiNode): Promise<Point> {
  let bounds = await boundsOf(accessibility, target, node);
  let parentId = target.index.get(node.id)?.parentId;
  while (bounds !== undefined && parentId !== undefined) {
    const parent = target.index.get(parentId);
    if (parent === undefined) break;
    if (CLIPPING_ROLES.has(parent.node.role)) {
      const clip = await boundsOf(accessibility, target, parent.node);
      if (clip !== undefined && clip.width > 0 && clip.height > 0) bounds = intersect(bounds, clip);
      if (parent.node.role === 'window' || parent.node.role === 'dialog') break;
    }
    parentId = parent.parentId;
  }
  return centerOf(bounds === undefined ? node : { ...node, bounds });
}
