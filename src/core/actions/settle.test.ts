import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { EVENT_GAP_MS, POLL_MS, waitForEffect } from './settle';

/** A look that becomes final on the `finalAt`-th call. */
function looks(finalAt: number): { look: () => Promise<{ value: number; final: boolean }>; count: () => number } {
  let count = 0;
  return {
    look: () => {
      count += 1;
      return Promise.resolve({ value: count, final: count >= finalAt });
    },
    count: () => count,
  };
}

describe('waitForEffect', () => {
  it('looks once after the first wait when the effect is already there', async () => {
    const clock = new FakeClock();
    const { look } = looks(1);
    expect(await waitForEffect({ clock, firstLookMs: 80, boundMs: 1200, look })).toBe(1);
    expect(clock.sleeps).toEqual([80]);
  });

  it('polls until the effect shows, on the growing intervals', async () => {
    const clock = new FakeClock();
    const { look } = looks(4);
    expect(await waitForEffect({ clock, firstLookMs: 80, boundMs: 1200, look })).toBe(4);
    expect(clock.sleeps).toEqual([80, POLL_MS[0], POLL_MS[1], POLL_MS[2]]);
  });

  it('stops at the bound and answers with the last look', async () => {
    const clock = new FakeClock();
    const { look, count } = looks(Number.POSITIVE_INFINITY);
    await waitForEffect({ clock, firstLookMs: 80, boundMs: 1200, look });
    expect(clock.time).toBe(1200);
    // 80 + 40 + 60 + 100 + 150 + 200 + 250 + 250 = 1130, then the last 70 ms up to the bound.
    expect(count()).toBe(9);
  });

  it('an event cuts a wait short after the gap', async () => {
    const clock = new FakeClock();
    const { look } = looks(2);
    let events = 0;
    const nextEvent = (): Promise<void> => {
      events += 1;
      return Promise.resolve();
    };
    // The clock's sleep resolves at once too, so the race is decided by order: both are called.
    await waitForEffect({ clock, firstLookMs: 80, boundMs: 1200, look, nextEvent });
    expect(events).toBe(1);
    expect(clock.sleeps.slice(0, 2)).toEqual([80, EVENT_GAP_MS]);
  });

  it('an abort stops the wait', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    controller.abort();
    await expect(waitForEffect({ clock, firstLookMs: 80, boundMs: 1200, look: looks(1).look, signal: controller.signal })).rejects.toThrow();
  });
});
