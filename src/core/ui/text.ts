import type { UiNode } from '../../shared/ui-node';

/**
 * A node's own text, one piece per entry: its name, its value unless that only repeats the
 * name, and its description likewise. A secret field's value is never part of it, whatever
 * the tree holds (the engine drops it too; this is the second lock). Shared by the agent's
 * ui_read and the MCP server's ui_read, so both read a node the same way.
 */
export function ownText(node: UiNode): string[] {
  const parts = [node.name];
  if (node.states.secret) parts.push('(secret field; its value is never read)');
  // A slider named "50" with the value 50 says it once: the value may be a number.
  else if (node.value !== undefined && String(node.value) !== node.name) parts.push(String(node.value));
  if (node.description !== undefined && node.description !== node.name) parts.push(node.description);
  return parts.filter((part) => part !== '');
}
