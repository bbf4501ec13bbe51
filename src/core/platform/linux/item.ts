/**
 * What a tree read knows of one node, in a module of its own so the node readers (tree-items.ts,
 * and kept-reads.ts, which tree-items.ts calls) share the one type without importing each other.
 */
import type { ObjectRef } from '../../../../native/linux/atspi';

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
