import { DeskpilotError, ProcessExitedError } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import type { AccessibilityBackend } from '../platform/types';
import { buildTree, type BuiltTree } from '../ui/ids';
import { redactSecrets } from '../ui/redact';
import { countNodes, walk, type IndexedNode } from '../ui/tree-index';

/** Past this size a subtree costs about as much as the whole tree, which also finds moved nodes. */
export const REREAD_LIMIT = 200;

/**
 * The node as it is now, read on its own with the ids the whole tree would give it, or
 * undefined when that cannot answer (no such backend call, a large subtree, the node gone,
 * ids that may not match the whole tree's): the caller then reads the whole tree.
 * A process that exited is passed on.
 */
export async function rereadNode(accessibility: AccessibilityBackend, tree: BuiltTree, before: IndexedNode): Promise<UiNode | undefined> {
  if (accessibility.readSubtree === undefined || countNodes(before.node) > REREAD_LIMIT) return undefined;
  try {
    const raw = await accessibility.readSubtree(tree.refs.get(before.node.id), before.node, REREAD_LIMIT + 1);
    const reread = buildTree(raw, { parentSlot: before.parentSlot, roleIndex: before.roleIndex });
    if (countNodes(reread.root) > REREAD_LIMIT || !sameIds(tree, before.node, reread)) return undefined;
    return redactSecrets(reread.root);
  } catch (error) {
    if (error instanceof ProcessExitedError || !(error instanceof DeskpilotError)) throw error;
    return undefined;
  }
}

/**
 * Unsalted ids are a pure function of the slot and the node's own role and name, so the re-read's ids are the whole
 * tree's unless a salt is involved: one the re-read added (a collision inside the subtree),
 * or one the whole tree added because a subtree node collided with a node outside it. The
 * re-read then hands out that outside node's id, and the model would act on the wrong node.
 * A renamed or new node can also collide with one outside. Any of these: read the whole tree.
 */
function sameIds(tree: BuiltTree, node: UiNode, reread: BuiltTree): boolean {
  if (reread.salted || reread.root.id !== node.id) return false;
  const inside = new Set<string>();
  for (const descendant of walk(node)) inside.add(descendant.id);
  for (const descendant of walk(reread.root)) {
    if (tree.refs.has(descendant.id) && !inside.has(descendant.id)) return false;
  }
  return true;
}
