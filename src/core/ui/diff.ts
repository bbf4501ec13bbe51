import type { Bounds, UiNode, UiStates } from '../../shared/ui-node';
import { fnv1a } from './ids';
import { walk } from './tree-index';

function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

/** Bounds missing on either side were not read, which is not a change. */
function sameBounds(a: Bounds | undefined, b: Bounds | undefined): boolean {
  if (a === undefined || b === undefined) return true;
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function stateChanges(before: UiStates, after: UiStates): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)] as (keyof UiStates)[]);
  return [...keys]
    .filter((key) => before[key] !== after[key])
    .sort()
    .map((key) => `states.${key}: ${show(before[key])} → ${show(after[key])}`);
}

/** A digest of everything under a node, so a change deep inside a container still counts. */
export function subtreeDigest(node: UiNode): number {
  let text = '';
  for (const descendant of walk(node)) {
    if (descendant === node) continue;
    // The description counts too: text read off the screen carries its pixels' digest there.
    text += `${descendant.id}|${descendant.name}|${String(descendant.value)}|${descendant.description ?? ''}|${JSON.stringify(descendant.states)}\n`;
  }
  return fnv1a(text);
}

/**
 * What differs between two snapshots of one node, in words a model can read.
 * An empty list means `changed: false`. The secret field's value is never compared or shown,
 * because it is never read in the first place.
 */
export function diffNodes(before: UiNode, after: UiNode): string[] {
  const changes: string[] = [];
  if (before.role !== after.role) changes.push(`role: ${before.role} → ${after.role}`);
  if (before.name !== after.name) changes.push(`name: ${show(before.name)} → ${show(after.name)}`);
  if (before.value !== after.value && !after.states.secret) {
    changes.push(`value: ${show(before.value)} → ${show(after.value)}`);
  }
  if (before.description !== after.description) {
    changes.push(`description: ${show(before.description)} → ${show(after.description)}`);
  }
  changes.push(...stateChanges(before.states, after.states));
  if (!sameBounds(before.bounds, after.bounds)) changes.push(`bounds: ${show(before.bounds)} → ${show(after.bounds)}`);
  if (before.actions.join() !== after.actions.join()) {
    changes.push(`actions: ${show(before.actions)} → ${show(after.actions)}`);
  }
  const countBefore = before.children?.length ?? before.childCount;
  const countAfter = after.children?.length ?? after.childCount;
  if (countBefore !== countAfter) changes.push(`children: ${show(countBefore)} → ${show(countAfter)}`);
  else if (before.children !== undefined && after.children !== undefined && subtreeDigest(before) !== subtreeDigest(after)) {
    changes.push('contents changed');
  }
  return changes;
}
