import type { RawNode } from '../../ui/ids';
import type { ChildRequest } from '../types';

/** Each tree's nodes by ref, built once per tree object: a fake app's tree is rebuilt on every read. */
const indexes = new WeakMap<RawNode, Map<unknown, RawNode>>();

function indexOf(root: RawNode): Map<unknown, RawNode> {
  let index = indexes.get(root);
  if (index === undefined) {
    index = new Map();
    for (const stack = [root]; stack.length > 0;) {
      const node = stack.pop() as RawNode;
      index.set(node.ref, node);
      stack.push(...(node.children ?? []));
    }
    indexes.set(root, index);
  }
  return index;
}

/** A node as readChildren gives it: its children counted, not included. */
function alone(node: RawNode): RawNode {
  const { children, ...rest } = node;
  return { ...rest, childCount: children?.length ?? 0 };
}

/**
 * AccessibilityBackend.readChildren over a tree held whole in memory, for fakes and tests:
 * the same answers a platform reading on demand gives. A ref that is gone reads as no children.
 */
export function readChildrenOf(root: RawNode, requests: readonly ChildRequest[]): RawNode[][] {
  const index = indexOf(root);
  return requests.map(({ ref, from, count }) => {
    if (ref === undefined) return [alone(root)];
    const children = index.get(ref)?.children ?? [];
    return children.slice(from, from + count).map(alone);
  });
}
