import { describe, expect, it } from 'vitest';
import { buildTree, type RawNode } from '../ui/ids';
import { levenshtein } from '../ui/query';
import { walk } from '../ui/tree-index';
import { closestCandidates } from './locate';

function raw(role: RawNode['role'], name: string, children?: RawNode[]): RawNode {
  return { ref: name, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], ...(children ? { children } : {}) };
}

/** The id with the characters at `positions` all changed (to one letter, unlike each), and no id in the tree. */
function edit(id: string, positions: number[], taken: Set<string>): string {
  for (const letter of 'abcdefghijklmnopqrstuvwxyz0123456789') {
    const chars = [...id];
    for (const position of positions) chars[position] = chars[position] === letter ? '_' : letter;
    const candidate = chars.join('');
    if (!candidate.includes('_') && !taken.has(candidate)) return candidate;
  }
  throw new Error('no free id');
}

describe('closestCandidates', () => {
  const root = buildTree(
    raw(
      'window',
      'App',
      Array.from({ length: 2000 }, (_unused, index) => raw('listitem', `Row ${index}`)),
    ),
  ).root;
  const nodes = [...walk(root)];
  const ids = new Set(nodes.map((node) => node.id));
  const target = nodes[1000];
  if (target === undefined) throw new Error('no node');

  it('offers an id one edit away, as a typo', () => {
    const typo = edit(target.id, [2], ids);
    expect(closestCandidates(root, typo, undefined).map((node) => node.id)).toContain(target.id);
  });

  it('does not offer ids two edits away: with five-character ids those are random nodes', () => {
    const far = edit(target.id, [1, 3], ids);
    expect(levenshtein(far, target.id)).toBe(2);
    const offered = closestCandidates(root, far, undefined);
    expect(offered.map((node) => node.id)).not.toContain(target.id);
    for (const node of offered) expect(levenshtein(node.id, far)).toBeLessThanOrEqual(1);
  });
});
