import { NodeNotFoundError } from '../../shared/errors';
import type { Role, UiNode } from '../../shared/ui-node';
import { findNodes } from '../ui/query';
import { indexTree, walk, type IndexedNode } from '../ui/tree-index';
import { levenshtein } from '../ui/query';

export interface Remembered {
  role: Role;
  name: string;
}

const CANDIDATE_LIMIT = 5;
/**
 * An id within this many edits of a missing one is offered as a typo. One, not two: with
 * five-character ids about 13,000 of the 60 million values are within two edits of any id,
 * so in a large tree those "closest" nodes would be random ones.
 */
const TYPO_EDITS = 1;

function distance(a: UiNode, b: UiNode): number {
  if (a.bounds === undefined || b.bounds === undefined) return Number.POSITIVE_INFINITY;
  return Math.hypot(a.bounds.x - b.bounds.x, a.bounds.y - b.bounds.y);
}

/**
 * Finds a node again after an action. By id first; then in the same slot (same parent,
 * role and index among same-role siblings) for a node whose name changed, like a counter
 * button; then by role and name anywhere, nearest first, for a node that moved. A node that
 * was already in the tree before is never taken for a moved one: closing the second of two
 * tabs leaves the first tab's "Close tab" button, which is not the button that was clicked.
 */
export function refind(
  after: UiNode,
  before: IndexedNode,
  beforeIndex?: Map<string, IndexedNode>,
  afterIndex: Map<string, IndexedNode> = indexTree(after),
): UiNode | undefined {
  const same = afterIndex.get(before.node.id);
  if (same !== undefined) return same.node;
  const existed = (node: UiNode): boolean => beforeIndex?.has(node.id) === true;
  for (const entry of afterIndex.values()) {
    if (entry.parentId === before.parentId && entry.node.role === before.node.role && entry.roleIndex === before.roleIndex && !existed(entry.node)) {
      return entry.node;
    }
  }
  const moved = [...walk(after)].filter((node) => node.role === before.node.role && node.name === before.node.name && !existed(node));
  moved.sort((a, b) => distance(a, before.node) - distance(b, before.node));
  return moved[0];
}

/**
 * The closest current nodes to an id that is gone: nodes like the one that id named when
 * it was last seen, then ids that differ by a typo. Never acted on; only suggested.
 */
export function closestCandidates(root: UiNode, id: string, remembered: Remembered | undefined): UiNode[] {
  const picked = new Map<string, UiNode>();
  if (remembered !== undefined) {
    for (const match of findNodes(root, { role: remembered.role, name: remembered.name, limit: CANDIDATE_LIMIT })) {
      picked.set(match.node.id, match.node);
    }
  }
  const typos = [...walk(root)]
    // A length that differs by more than the typo allowance cannot be within it: no distance to compute.
    .filter((node) => Math.abs(node.id.length - id.length) <= TYPO_EDITS)
    .map((node) => ({ node, distance: levenshtein(node.id, id) }))
    .filter((entry) => entry.distance <= TYPO_EDITS)
    .sort((a, b) => a.distance - b.distance);
  for (const { node } of typos) if (picked.size < CANDIDATE_LIMIT) picked.set(node.id, node);
  return [...picked.values()];
}

export function notFoundError(root: UiNode, id: string, remembered: Remembered | undefined, pid: number): NodeNotFoundError {
  const candidates = closestCandidates(root, id, remembered);
  const was = remembered === undefined ? '' : ` (it was ${remembered.role} "${remembered.name}")`;
  const closest =
    candidates.length === 0
      ? 'Read the tree again for current ids.'
      : `Closest: ${candidates.map((node) => `[${node.id}] ${node.role} "${node.name}"`).join('; ')}. Nothing was done; pick one of these or read the tree again.`;
  // An id is a few letters; a huge one is quoted by its start, so the error stays one short line.
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return new NodeNotFoundError(`node not found: '${shown}' is not in the tree of pid ${pid}${was}. ${closest}`, {
    data: { id: shown, candidates: candidates.map((node) => ({ id: node.id, role: node.role, name: node.name })) },
  });
}
