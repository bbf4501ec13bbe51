import type { UiNode } from '../../shared/ui-node';
import { printsOwnLine } from '../ui/serialize';
import { countNodes } from '../ui/tree-index';

export interface DepthCut {
  /** The node whose children were left out. */
  id: string;
  hidden: number;
}

/**
 * A copy of the tree down to `depth` printed levels below the root (0: the root alone), and
 * what was left out where. Levels count the lines the compact text prints: an unnamed wrapper
 * is not a level, so a cut always names a node the text shows.
 */
export function limitDepth(root: UiNode, depth: number | undefined): { root: UiNode; cuts: DepthCut[] } {
  if (depth === undefined) return { root, cuts: [] };
  const cuts: DepthCut[] = [];
  const copy = (node: UiNode, level: number, parent: UiNode | undefined): UiNode => {
    const children = node.children ?? [];
    if (children.length === 0) return node;
    const printed = printsOwnLine(node, parent);
    if (printed && level >= depth) {
      // Children a budgeted read did not reach (childCount) are counted in this cut, not in a note of their own.
      const unread = Math.max(0, (node.childCount ?? 0) - children.length);
      cuts.push({ id: node.id, hidden: countNodes(node) - 1 + unread });
      const { children: _dropped, childCount: _unread, ...rest } = node;
      return rest;
    }
    return { ...node, children: children.map((child) => copy(child, printed ? level + 1 : level, node)) };
  };
  return { root: copy(root, 0, undefined), cuts };
}

const LISTED_CUTS = 30;

/** Lines for the end of a tree text, in the form serializeTree uses for its own cuts. */
export function depthNotes(cuts: readonly DepthCut[]): string[] {
  if (cuts.length === 0) return [];
  const biggest = [...cuts].sort((a, b) => b.hidden - a.hidden);
  const lines = biggest.slice(0, LISTED_CUTS).map((cut) => `… depth limit: ${cut.hidden} more under ${cut.id}`);
  if (biggest.length > LISTED_CUTS) lines.push(`… depth limit: ${biggest.length - LISTED_CUTS} more cut subtrees`);
  return lines;
}
