import { describe, expect, it } from 'vitest';
import { DeskpilotError } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import { findNodes } from './query';
import { cutNote, markNodeCap, trustedMatches } from './read-cut';

const button = (index: number): UiNode => ({
  id: `b${index}`,
  role: 'button',
  platformRole: 'atspi:43',
  name: `Act ${index}`,
  states: { enabled: true, focused: false },
  actions: ['press'],
});
const page = (count: number, cut?: UiNode['cut']): UiNode => ({
  id: 'root',
  role: 'window',
  platformRole: 'atspi:23',
  name: 'Big page',
  states: { enabled: true, focused: false },
  actions: [],
  children: Array.from({ length: count }, (_unused, index) => button(index)),
  ...(cut === undefined ? {} : { cut }),
});

describe('trustedMatches', () => {
  it('keeps every match, best first, on a whole tree', () => {
    const root = page(40);
    const matches = findNodes(root, { name: 'Act 3950' });
    expect(trustedMatches(root, matches, true)).toEqual(matches);
  });

  it('never turns a cut tree into a near match: "Act 3950" past the cut is NODE_NOT_FOUND with the reason, not "Act 30"', () => {
    const root = page(40, { reason: 'max-nodes', limit: 41, nodes: 41 });
    const matches = findNodes(root, { name: 'Act 3950' });
    expect(matches[0]?.node.name).toBe('Act 30');
    let caught: unknown;
    try {
      trustedMatches(root, matches, true);
    } catch (error) {
      caught = error;
    }
    expect(DeskpilotError.isInstance(caught) && caught.code).toBe('NODE_NOT_FOUND');
    expect((caught as DeskpilotError).data).toMatchObject({ reason: 'read-cut', cut: { reason: 'max-nodes', limit: 41 } });
    expect((caught as Error).message).toContain("the read stopped at 41 nodes (the reader's cap of 41)");
  });

  it('keeps an exact match on a cut tree, and a role-only search', () => {
    const root = page(40, { reason: 'max-nodes', limit: 41, nodes: 41 });
    expect(trustedMatches(root, findNodes(root, { name: 'act 30' }), true).map((match) => match.node.name)).toEqual(['Act 30']);
    expect(trustedMatches(root, findNodes(root, { role: 'button' }), false)).toHaveLength(40);
  });

  it('says a depth cut as one', () => {
    expect(cutNote({ reason: 'max-depth', limit: 64, nodes: 900 })).toContain('64 levels down');
  });

  it('marks a walked tree that holds its whole node budget as cut there, and leaves a smaller one whole', () => {
    expect(markNodeCap(page(40), 41).cut).toEqual({ reason: 'max-nodes', limit: 41, nodes: 41 });
    expect(markNodeCap(page(40), 42).cut).toBeUndefined();
  });
});
