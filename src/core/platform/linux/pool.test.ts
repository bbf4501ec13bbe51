import { describe, expect, it } from 'vitest';
import { limiter, mapLimit } from './pool';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('pool', () => {
  it('mapLimit keeps order and never exceeds the limit', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (value) => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      running -= 1;
      return value * 2;
    });
    expect(results).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(peak).toBe(3);
  });

  it('limiter bounds nested, recursive use and survives failures', async () => {
    const limit = limiter(2);
    let running = 0;
    let peak = 0;
    const job = (fail: boolean) =>
      limit(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await tick();
        running -= 1;
        if (fail) throw new Error('boom');
        return 1;
      });
    const settled = await Promise.allSettled([job(false), job(true), job(false), job(false), job(true)]);
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(peak).toBe(2);
  });

  it('limiter gives a freed slot to the task waiting longest, not to a newcomer', async () => {
    const limit = limiter(1);
    const order: string[] = [];
    let running = 0;
    let peak = 0;
    const job = (name: string) =>
      limit(async () => {
        running += 1;
        peak = Math.max(peak, running);
        order.push(name);
        await tick();
        running -= 1;
      });
    const first = job('a');
    const waiting = job('b');
    await first;
    // 'a' is done and 'b' holds its slot: a newcomer now waits behind it.
    await Promise.all([waiting, job('c')]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(peak).toBe(1);
  });
});
