import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import { processAgeMs, settledFirstRead } from './first-read';

const tree = (children: number): RawNode<null> => ({
  ref: null,
  role: 'window',
  platformRole: 'atspi:69',
  name: 'w',
  states: { enabled: true, focused: false },
  actions: [],
  children: Array.from({ length: children }, () => ({
    ref: null,
    role: 'button',
    platformRole: 'atspi:43',
    name: 'b',
    states: { enabled: true, focused: false },
    actions: [],
  })),
});

function clocked(): { now: () => number; sleep: (ms: number) => Promise<void> } {
  let time = 0;
  return { now: () => time, sleep: (ms) => ((time += ms), Promise.resolve()) };
}

describe('settledFirstRead', () => {
  it('reads a young app again until two reads agree, and answers with the settled tree', async () => {
    const sizes = [1, 3, 5, 5, 5];
    let reads = 0;
    const result = await settledFirstRead(() => Promise.resolve(tree(sizes[reads++] as number)), { lazyToolkit: false, ageMs: 800, ...clocked() });
    expect(result.children).toHaveLength(5);
    expect(reads).toBe(4);
  });

  it('reads an app that has run a while once, and stops waiting at its bound for one that never settles', async () => {
    let reads = 0;
    await settledFirstRead(() => Promise.resolve(tree(reads++)), { lazyToolkit: false, ageMs: 600_000, ...clocked() });
    expect(reads).toBe(1);
    reads = 0;
    await settledFirstRead(() => Promise.resolve(tree(reads++)), { lazyToolkit: true, ageMs: undefined, ...clocked() });
    expect(reads).toBeGreaterThan(2);
    expect(reads).toBeLessThan(30);
  });

  it('knows how old this process is', () => {
    const age = processAgeMs(process.pid);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(processAgeMs(2 ** 22 + 7)).toBeUndefined();
  });
});
