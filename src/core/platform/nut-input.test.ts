import { describe, expect, it } from 'vitest';
import type * as NutJs from '@nut-tree-fork/nut-js';
import { CLICK_HOLD_MS, createNutInput } from './nut-input';

/** Just the nut-js a click uses, logging each call in order. */
function fakeNut(log: string[]): typeof NutJs {
  const mouse = {
    config: {},
    setPosition: (point: { x: number; y: number }) => Promise.resolve(log.push(`move ${point.x},${point.y}`)),
    pressButton: () => Promise.resolve(log.push('press')),
    releaseButton: () => Promise.resolve(log.push('release')),
  };
  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }
  const keyboard = {
    config: {},
    pressKey: (...keys: number[]) => Promise.resolve(log.push(`down ${keys.join('+')}`)),
    releaseKey: (...keys: number[]) => Promise.resolve(log.push(`up ${keys.join('+')}`)),
  };
  return { mouse, keyboard, Button: { LEFT: 0 }, Key: { A: 1, B: 2, C: 3, LeftShift: 9 }, Point } as unknown as typeof NutJs;
}

describe('createNutInput', () => {
  it('holds the button down between press and release, as a person does, so a GTK 4 check box toggles', async () => {
    const log: string[] = [];
    const input = await createNutInput({
      load: () => Promise.resolve(fakeNut(log)),
      pause: (ms) => {
        log.push(`pause ${ms}`);
        return Promise.resolve();
      },
    });
    await input.click({ x: 10, y: 20 });
    expect(log).toEqual(['move 10,20', 'press', `pause ${CLICK_HOLD_MS}`, 'release']);
  });

  it('stops between two keys once aborted: no key is left down, and the rest is not typed', async () => {
    const log: string[] = [];
    const input = await createNutInput({ load: () => Promise.resolve(fakeNut(log)) });
    const controller = new AbortController();
    const typed = input.typeText('abc', controller.signal);
    // The first key's press is under way when the user presses Stop.
    controller.abort();
    await expect(typed).rejects.toThrow();
    expect(log).toEqual(['down 1', 'up 1']);
  });
});
