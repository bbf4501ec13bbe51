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

/** A fake clock that counts its waits: tests count them instead of timing anything. */
function clocked(): { now: () => number; sleep: (ms: number) => Promise<void>; waits: () => number } {
  let time = 0;
  let waits = 0;
  return { now: () => time, sleep: (ms) => ((time += ms), (waits += 1), Promise.resolve()), waits: () => waits };
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

  it('reads an idle GTK 4 app that has been running once, with no wait, as every CLI call to it does', async () => {
    for (let call = 0; call < 5; call += 1) {
      const clock = clocked();
      let reads = 0;
      await settledFirstRead(() => Promise.resolve(tree((reads += 1))), { lazyToolkit: true, ageMs: 120_000, eventCount: () => 7, ...clock });
      expect(reads).toBe(1);
      expect(clock.waits()).toBe(0);
    }
  });

  it('waits for an app that has been running when its events show content arriving during the read', async () => {
    const clock = clocked();
    const sizes = [4, 9, 9];
    let reads = 0;
    let events = 0;
    const read = (): Promise<RawNode<null>> => {
      events += 3; // a page loading: children added while it is read
      return Promise.resolve(tree(sizes[reads++] as number));
    };
    const result = await settledFirstRead(read, { lazyToolkit: false, ageMs: 600_000, eventCount: () => events, ...clock });
    expect(result.children).toHaveLength(9);
    expect(reads).toBe(3);
    expect(clock.waits()).toBe(2);
  });

  it('waits for a young app, and for a GTK 4 app whose age is unknown, up to the bound', async () => {
    const young = clocked();
    let reads = 0;
    await settledFirstRead(() => Promise.resolve(tree(reads++)), { lazyToolkit: false, ageMs: 1000, eventCount: () => 0, ...young });
    // Never settles: stopped by the 2 s bound at 150 ms a pause.
    expect(young.waits()).toBe(Math.ceil(2000 / 150));
    const unknown = clocked();
    reads = 0;
    await settledFirstRead(() => Promise.resolve(tree(3)), { lazyToolkit: true, ageMs: undefined, ...unknown });
    expect(unknown.waits()).toBe(1);
  });

  it('knows how old this process is', () => {
    const age = processAgeMs(process.pid);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(processAgeMs(2 ** 22 + 7)).toBeUndefined();
  });
});
