import { describe, expect, it, vi } from 'vitest';
import type { AccessibilityBackend, QuickMatch } from '../platform/types';
import { buildTree } from '../ui/ids';
import { quickFind } from './quick-find';

const match: QuickMatch = {
  node: { ref: {}, role: 'button', platformRole: 'atspi:43', name: 'Act 3950', states: { enabled: true, focused: false }, actions: ['press'] },
  slot: { parentSlot: 'abc', roleIndex: 1 },
  score: 1,
};

function platform(answer: QuickMatch[] | undefined) {
  const findNodes = vi.fn(() => Promise.resolve(answer));
  return { findNodes, platform: { accessibility: { findNodes } as unknown as AccessibilityBackend } };
}

describe('quickFind', () => {
  it('asks the backend for roles and a name, and gives each match the id its slot gives', async () => {
    const { findNodes, platform: subject } = platform([match]);
    const [found] = (await quickFind(subject, 7, { role: 'button', name: 'Act 3950', limit: 5 })) ?? [];
    expect(findNodes).toHaveBeenCalledWith(7, { roles: new Set(['button', 'togglebutton']), name: 'Act 3950', limit: 5 });
    expect(found?.node.id).toBe(buildTree(match.node, match.slot).root.id);
  });

  it('leaves text, description, raw platform roles and empty answers to the tree', async () => {
    const { findNodes, platform: subject } = platform([]);
    expect(await quickFind(subject, 7, { text: 'Act', limit: 5 })).toBeUndefined();
    expect(await quickFind(subject, 7, { name: 'Act', description: 'tip', limit: 5 })).toBeUndefined();
    expect(await quickFind(subject, 7, { role: 'filler', limit: 5 })).toBeUndefined();
    expect(findNodes).not.toHaveBeenCalled();
    expect(await quickFind(subject, 7, { name: 'Act', limit: 5 })).toBeUndefined();
    expect(await quickFind({ accessibility: {} as AccessibilityBackend }, 7, { name: 'Act', limit: 5 })).toBeUndefined();
  });
});
