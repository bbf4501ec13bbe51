/**
 * What a tree read knows of one node, in a module of its own so the node readers (tree-items.ts,
 * and kept-reads.ts, which tree-items.ts calls) share the one type without importing each other.
 */
import type { ObjectRef } from '../../../../native/linux/atspi';
import type { Role, UiStates } from '../../../shared/ui-node';

/** What a node of the tree takes from its own record alone: decoded once, as its read comes in. */
export interface NodeFacts {
  role: Role;
  states: UiStates;
  actions: string[];
}

export interface Item {
  self: ObjectRef;
  index: number;
  /** -1 when unknown, so the node is walked. */
  childCount: number;
  interfaces: string[];
  name: string;
  role: number;
  description: string;
  states: number[];
  /** Known for cache rows only; walked nodes hang under the path they were found under. */
  parentPath?: string;
  /** Its children as GetChildren listed them in the read of the node itself (kept-reads.ts), so the walk need not ask. */
  listed?: ObjectRef[];
  /** Its Text content as the read that made it asked already (a sheet's range cell, sampled-reads.ts), so the value pass need not ask again. */
  text?: string;
  /**
   * Its role, states and actions as the tree gives them, worked out when its read came in (tree-values.ts' factsOf):
   * that is while the app still answers other nodes, not in the build after the last answer. Set on records made by
   * this read only (a cache row may serve several reads, whose trees must not share a states object).
   */
  facts?: NodeFacts;
}

/** Distinct interface lists kept: a real app has a handful; an app inventing names gets no more. */
const MAX_LISTS = 256;
const lists = new Map<string, readonly string[]>();

/**
 * One array per distinct interface list, for reads that keep interfaces past a node (a page's
 * thousands of nodes share a handful of lists). The arrays handed out are shared: never mutated.
 */
export function sharedList<List extends readonly string[]>(interfaces: List): List {
  const key = interfaces.join(' ');
  const known = lists.get(key);
  if (known !== undefined) return known as List;
  if (lists.size >= MAX_LISTS) lists.clear();
  lists.set(key, interfaces);
  return interfaces;
}
