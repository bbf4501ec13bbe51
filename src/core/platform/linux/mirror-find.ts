import type { Role } from '../../../shared/ui-node';
import { slotKey, type RawNode } from '../../ui/ids';
import { isExactText, textScore } from '../../ui/query';
import type { QuickMatch, QuickQuery } from '../types';
import { tiersOf } from './find-tiers';

interface Placed {
  node: RawNode;
  parentSlot: string;
  roleIndex: number;
}

/**
 * Every node of a whole tree in document order, with the slot buildTree gives it (its parent's
 * slot and its index among its parent's children of its role), so a match's id is the tree's.
 * Iterative: a deep tree costs no stack.
 */
function placed(root: RawNode): Placed[] {
  const out: Placed[] = [];
  const stack: Placed[] = [{ node: root, parentSlot: '', roleIndex: 0 }];
  while (stack.length > 0) {
    const each = stack.pop() as Placed;
    out.push(each);
    const kids = each.node.children ?? [];
    const ownSlot = slotKey(each.parentSlot, each.node.role, each.roleIndex);
    const seen = new Map<Role, number>();
    const children = kids.map((child) => {
      const index = seen.get(child.role) ?? 0;
      seen.set(child.role, index + 1);
      return { node: child, parentSlot: ownSlot, roleIndex: index };
    });
    for (let at = children.length - 1; at >= 0; at -= 1) stack.push(children[at] as Placed);
  }
  return out;
}

/**
 * The Collection search (collection-find.ts) answered from a mirrored tree in memory, with the
 * same rules: for a name alone the tiers of find-tiers.ts first, then every role; exact names
 * only, best first and document order among equals; the app's root never. Undefined where the
 * tree is cut, or nothing matches exactly: the caller searches the tree, which decides near matches.
 */
export function mirrorFind(root: RawNode, query: QuickQuery): QuickMatch[] | undefined {
  if (root.cut !== undefined) return undefined;
  const nodes = placed(root).slice(1);
  const exactOf = (roles: ReadonlySet<Role> | undefined): QuickMatch[] => {
    const ofRoles = roles === undefined || roles.size === 0 ? nodes : nodes.filter(({ node }) => roles.has(node.role));
    const { name } = query;
    if (name === undefined) return ofRoles.slice(0, query.limit).map((each) => match(each, 1));
    return ofRoles
      .filter(({ node }) => isExactText(name, node.name))
      .map((each) => match(each, textScore(name, each.node.name)))
      .sort((a, b) => b.score - a.score)
      .slice(0, query.limit);
  };
  for (const tier of tiersOf(query)) {
    const found = exactOf(tier);
    if (found.length > 0) return found;
  }
  return undefined;
}

/** The node alone: the caller builds its id from it, and a subtree would be built too. */
function match({ node, parentSlot, roleIndex }: Placed, score: number): QuickMatch {
  const { children: _children, ...fields } = node;
  return { node: fields, slot: { parentSlot, roleIndex }, score };
}
