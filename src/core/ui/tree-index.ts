import type { UiNode } from '../../shared/ui-node';
import { slotKey } from './ids';

export interface IndexedNode {
  node: UiNode;
  parentId: string | undefined;
  /** The parent's slot (see ids.ts): with role and roleIndex, what a re-read of this node alone hashes. */
  parentSlot: string;
  /** Index among siblings with the same role: with parentId and role, a node's structural slot. */
  roleIndex: number;
  depth: number;
}

/** Every node of a tree (a UiNode, or a backend's RawNode), in document order. */
export function* walk<Node extends { children?: Node[] }>(root: Node): Generator<Node> {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    yield node;
    const children = node.children ?? [];
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Node);
  }
}

export function countNodes(root: UiNode): number {
  let count = 0;
  for (const _node of walk(root)) count += 1;
  return count;
}

/** Indexes every node by id in one pass, remembering where each sits. */
export function indexTree(root: UiNode): Map<string, IndexedNode> {
  const index = new Map<string, IndexedNode>();
  const visit = (node: UiNode, parentId: string | undefined, parentSlot: string, roleIndex: number, depth: number): void => {
    index.set(node.id, { node, parentId, parentSlot, roleIndex, depth });
    const ownSlot = slotKey(parentSlot, node.role, roleIndex);
    const seen = new Map<string, number>();
    for (const child of node.children ?? []) {
      const childIndex = seen.get(child.role) ?? 0;
      seen.set(child.role, childIndex + 1);
      visit(child, node.id, ownSlot, childIndex, depth + 1);
    }
  };
  visit(root, undefined, '', 0, 0);
  return index;
}

export function findById(root: UiNode, id: string): UiNode | undefined {
  for (const node of walk(root)) if (node.id === id) return node;
  return undefined;
}

/** The node without its children: what a snapshot or an action result carries. */
export function shallow(node: UiNode): UiNode {
  const { children, ...rest } = node;
  return children === undefined ? rest : { ...rest, childCount: children.length };
}
