import type { ReadCut, UiNode } from '../../shared/ui-node';
import type { ActionEngine } from '../actions/engine';
import { nodeById } from './target';

/**
 * Nodes a budgeted read takes for a text budget: about two per line the budget prints (wrappers,
 * folded labels and dropped duplicates are read but not printed), and one per four tokens at
 * most. The default ui_tree budget (6,000 tokens, 500 lines) reads 1,000 nodes.
 */
export function readsFor(maxTokens: number, maxNodes: number): number {
  return Math.max(50, Math.min(maxNodes * 2, Math.ceil(maxTokens / 4)));
}

/**
 * The tree the compact text is made from: a read that stops at the budget where the platform
 * reads on demand (its time follows the budget, not the page), else the whole tree. `rootId`
 * is looked for the same way, and a read that does not meet it falls back to the whole tree,
 * which says NODE_NOT_FOUND with the closest ids when it is really gone. `cut` is set when
 * that whole read stopped at the platform's cap (a budgeted read says its cuts in markers).
 */
export async function observeForText(
  engine: ActionEngine,
  pid: number,
  options: { rootId?: string | undefined; maxTokens: number; maxNodes: number; signal?: AbortSignal | undefined },
): Promise<{ subject: UiNode; cut?: ReadCut }> {
  const budgeted = await engine.observeOutline(pid, {
    maxReads: readsFor(options.maxTokens, options.maxNodes),
    maxTokens: options.maxTokens,
    ...(options.rootId === undefined ? {} : { rootId: options.rootId }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (budgeted !== undefined) return { subject: budgeted.subject };
  const { root } = await engine.observe(pid, { fresh: true, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const subject = options.rootId === undefined ? root : nodeById(root, options.rootId, pid);
  return root.cut === undefined ? { subject } : { subject, cut: root.cut };
}
