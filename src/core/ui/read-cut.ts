import { NodeNotFoundError } from '../../shared/errors';
import type { ReadCut, UiNode } from '../../shared/ui-node';
import type { Match } from './query';

/**
 * Nodes a full read (`tree --json`, `find`, an untargeted read) takes before it stops and says
 * so: a 20,000-node page reads whole, and an app that lists without end still ends.
 */
export const FULL_READ_MAX_NODES = 50_000;

/** A match at least this good names the node itself (exact, or equal up to case and spaces). */
export const EXACT_SCORE = 0.95;

/**
 * Marks a tree read by a walker that stops when its node budget is spent (macOS): a tree that
 * holds the whole budget is taken as cut there, since the walker cannot tell "exactly full" apart.
 */
export function markNodeCap<T extends { children?: T[] | undefined; cut?: ReadCut }>(tree: T, maxNodes: number): T {
  let nodes = 0;
  for (const stack = [tree]; stack.length > 0 && nodes < maxNodes; nodes += 1) stack.push(...((stack.pop() as T).children ?? []));
  return nodes >= maxNodes ? { ...tree, cut: { reason: 'max-nodes', limit: maxNodes, nodes } } : tree;
}

/** One sentence saying where the read stopped and why, for every program that shows a cut tree. */
export function cutNote(cut: ReadCut): string {
  if (cut.reason === 'max-depth') return `the read stopped ${cut.limit} levels down (the reader's depth cap): deeper nodes are left out`;
  return `the read stopped at ${cut.nodes.toLocaleString('en-US')} nodes (the reader's cap of ${cut.limit.toLocaleString('en-US')}): the app has more, which this tree leaves out`;
}

/**
 * The matches a search may return from `root`. On a whole tree, all of them, best first. On
 * a cut tree, a near match may be the wrong twin of a node past the cut ("Act 30" for
 * "Act 3950"), so only exact ones stand when the search named something; with none, the
 * answer is NODE_NOT_FOUND with the cut's reason (data.reason 'read-cut'), never a guess.
 */
export function trustedMatches(root: UiNode, matches: readonly Match[], named: boolean): Match[] {
  const { cut } = root;
  if (cut === undefined || !named) return [...matches];
  const exact = matches.filter((match) => match.score >= EXACT_SCORE);
  if (exact.length > 0) return exact;
  throw new NodeNotFoundError(`no exact match in what was read, and ${cutNote(cut)}; read a part with --root / rootId, or search by role`, {
    data: { reason: 'read-cut', cut, nearest: matches.slice(0, 3).map((match) => ({ id: match.node.id, name: match.node.name })) },
  });
}
