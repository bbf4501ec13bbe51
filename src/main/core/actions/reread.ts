import { DeskpilotError, ProcessExitedError } from '../../../shared/errors';
import type { UiNode } from '../../../shared/ui-node';
import type { AccessibilityBackend } from '../platform/types';
import { buildTree } from '../ui/ids';
import { redactSecrets } from '../ui/redact';
import { countNodes, type IndexedNode } from '../ui/tree-index';

/** Past this size a subtree costs about as much as the whole tree, which also finds moved nodes. */
export const REREAD_LIMIT = 200;

/**
 * The node as it is now, read on its own with the ids the whole tree would give it, or
 * undefined when that cannot answer (no such backend call, a large subtree, the node gone):
 * the caller then reads the whole tree. A process that exited is passed on.
 */
export async function rereadNode(accessibility: AccessibilityBackend, ref: unknown, before: IndexedNode): Promise<UiNode | undefined> {
  if (accessibility.readSubtree === undefined || countNodes(before.node) > REREAD_LIMIT) return undefined;
  try {
    const raw = await accessibility.readSubtree(ref, before.node, REREAD_LIMIT + 1);
    const { root } = buildTree(raw, { parentId: before.parentId ?? '', roleIndex: before.roleIndex });
    return countNodes(root) > REREAD_LIMIT ? undefined : redactSecrets(root);
  } catch (error) {
    if (error instanceof ProcessExitedError || !(error instanceof DeskpilotError)) throw error;
    return undefined;
  }
}
