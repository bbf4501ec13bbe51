/**
 * Helpers for checking the event-patched tree mirror against a full read of the same app:
 * a seeded random generator, a way to read past the mirror, and a node-by-node comparison.
 */
import type { UiNode } from '../../src/shared/ui-node';
import { buildTree } from '../../src/core/ui/ids';
import type { AtspiAccessibility } from '../../src/core/platform/linux/accessibility';
import type { Platform } from '../../src/core/platform/types';
import { FULL_READ_MAX_NODES } from '../../src/core/ui/read-cut';

/** mulberry32: small, fast and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T | undefined {
  return items[Math.floor(random() * items.length)];
}

/** The mirror's tree: a fresh read, served from the patched mirror. */
export async function mirrorTree(platform: Platform, pid: number): Promise<UiNode> {
  return buildTree(await platform.accessibility.getTree(pid, { fresh: true })).root;
}

/**
 * Options for a full fetch that never touches the mirror: the mirror serves only the default
 * limits, so one node less than the default cap (FULL_READ_MAX_NODES) reads the app whole.
 */
export const WHOLE_READ = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;

export async function fullTree(platform: Platform, pid: number): Promise<UiNode> {
  return buildTree(await platform.accessibility.getTree(pid, WHOLE_READ)).root;
}

export function mirrorStats(platform: Platform): AtspiAccessibility['mirrorStats'] {
  return (platform.accessibility as AtspiAccessibility).mirrorStats;
}

function flatten(root: UiNode): Map<string, { node: UiNode; parent: string; index: number }> {
  const nodes = new Map<string, { node: UiNode; parent: string; index: number }>();
  const visit = (node: UiNode, parent: string, index: number): void => {
    nodes.set(node.id, { node, parent, index });
    node.children?.forEach((child, at) => visit(child, node.id, at));
  };
  visit(root, '', 0);
  return nodes;
}

const describe = (node: UiNode): string => `${node.role} "${node.name}"`;

/** Every difference in ids, place, roles, names, values and states; empty when the trees agree. */
export function compareTrees(mirror: UiNode, full: UiNode, limit = 12): string[] {
  const left = flatten(mirror);
  const right = flatten(full);
  const differences: string[] = [];
  for (const [id, { node, parent, index }] of right) {
    const other = left.get(id);
    if (other === undefined) {
      differences.push(`missing from the mirror: ${id} ${describe(node)}`);
      continue;
    }
    if (other.parent !== parent || other.index !== index) differences.push(`${id} ${describe(node)} sits elsewhere in the mirror`);
    const fields: (keyof UiNode)[] = ['role', 'name', 'value', 'description'];
    for (const field of fields) {
      if (JSON.stringify(other.node[field]) !== JSON.stringify(node[field]))
        differences.push(`${id} ${describe(node)}: ${field} ${JSON.stringify(other.node[field])} in the mirror, ${JSON.stringify(node[field])} read whole`);
    }
    if (JSON.stringify(sorted(other.node.states)) !== JSON.stringify(sorted(node.states)))
      differences.push(`${id} ${describe(node)}: states ${JSON.stringify(other.node.states)} in the mirror, ${JSON.stringify(node.states)} read whole`);
  }
  for (const [id, { node }] of left) if (!right.has(id)) differences.push(`only in the mirror: ${id} ${describe(node)}`);
  return differences.slice(0, limit);
}

function sorted(states: UiNode['states']): [string, unknown][] {
  return Object.entries(states).sort(([a], [b]) => a.localeCompare(b));
}
