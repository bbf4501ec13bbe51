import type { Bounds, UiNode } from '../../shared/ui-node';
import { MAX_PATH } from './schema';
import { isWindow } from './window';

/** Most nodes a resolver looks at in one tree: bigger trees are cut, never walked without end. */
export const MAX_PLACES = 50_000;

/** A node with where it sits: its window, the ancestors between, its parent and its rank among identical siblings. */
export interface Place {
  node: UiNode;
  window: UiNode | undefined;
  /** Ancestors below the window, outermost first. */
  path: { role: UiNode['role']; name: string }[];
  parent: UiNode | undefined;
  /** Index among the parent's children with the same role and name, and how many there are. */
  twin: { index: number; of: number };
  /** Document order. */
  order: number;
}

/** Every node's place, in document order, in one walk. */
export function placesOf(root: UiNode, limit = MAX_PLACES): Place[] {
  const places: Place[] = [];
  const visit = (node: UiNode, window: UiNode | undefined, path: Place['path'], parent: UiNode | undefined, twin: Place['twin']): void => {
    if (places.length >= limit) return;
    places.push({ node, window, path, parent, twin, order: places.length });
    const ownWindow = isWindow(node) ? node : window;
    const childPath = isWindow(node)
      ? []
      : window === undefined && parent === undefined
        ? []
        : [...path, { role: node.role, name: node.name }].slice(-MAX_PATH);
    const children = node.children ?? [];
    const counts = new Map<string, number>();
    for (const child of children) counts.set(twinKey(child), (counts.get(twinKey(child)) ?? 0) + 1);
    const seen = new Map<string, number>();
    for (const child of children) {
      const key = twinKey(child);
      const index = seen.get(key) ?? 0;
      seen.set(key, index + 1);
      visit(child, ownWindow, childPath, node, { index, of: counts.get(key) ?? 1 });
    }
  };
  visit(root, undefined, [], undefined, { index: 0, of: 1 });
  return places;
}

function twinKey(node: UiNode): string {
  return `${node.role}\u0000${node.name}`;
}

/** Bounds relative to the window's top-left, where both are known. */
export function relativeBounds(node: UiNode, window: UiNode | undefined): Bounds | undefined {
  if (node.bounds === undefined) return undefined;
  if (window?.bounds === undefined) return node.bounds;
  return { ...node.bounds, x: node.bounds.x - window.bounds.x, y: node.bounds.y - window.bounds.y };
}

export function samePath(a: readonly { role: string; name: string }[], b: readonly { role: string; name: string }[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry.role === b[index]?.role && entry.name === b[index]?.name);
}
