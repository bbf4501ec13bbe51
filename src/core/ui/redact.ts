import type { UiNode } from '../../shared/ui-node';

/**
 * Drops the value of every secret field. Backends never read those values in the first
 * place; this is the second lock, applied wherever a tree leaves the core.
 */
export function redactSecrets(node: UiNode): UiNode {
  const children = node.children?.map(redactSecrets);
  const { value, ...rest } = node;
  const kept: UiNode = node.states.secret || value === undefined ? rest : { ...rest, value };
  return children === undefined ? kept : { ...kept, children };
}
