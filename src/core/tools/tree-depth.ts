import type { UiNode } from '../../shared/ui-node';
import { countNodes } from '../ui/tree-index';

export interface DepthCut {
  /** The node whose children were left out. */
  id: string;
  hidden: number;
}

/** A copy of the tree down to `depth` levels below the root (0: the root alone), and what was left out where. */
export function limitDepth(root: UiNode, depth: number | undefined): { root: UiNode; cuts: DepthCut[] } {
  if (depth === undefined) return { root, cuts: [] };
  const cuts: DepthCut[] = [];
  const copy = (node: UiNode, level: number): UiNode => {
    const children = node.children ?? [];
    if (children.length === 0) return node;
    if (level >= depth) {
      cuts.push({ id: node.id, hidden: countNodes(node) - 1 });
      const { children: _dropped, ...rest } = node;
      return rest;
    }
    return { ...node, children: children.map((child) => copy(child, level + 1)) };
  };
  return { root: copy(root, 0), cuts };
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
