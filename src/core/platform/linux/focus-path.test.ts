import { describe, expect, it } from 'vitest';
import { ROOT_PATH, STATE } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { focusPathOf } from './focus-path';

const BUS = ':1.9';

/** A page of `rows` rows of a cell and a button under a document; the button of row `focused` has the focus (a view above it says so too, listed after it, as Chromium's). */
function app(rows: number, focused: number) {
  const children = new Map<string, string[]>([
    [ROOT_PATH, ['/w']],
    ['/w', ['/toolbar', '/doc']],
    ['/doc', Array.from({ length: rows }, (_unused, row) => `/r${row}`)],
  ]);
  for (let row = 0; row < rows; row += 1) children.set(`/r${row}`, [`/c${row}`, `/b${row}`]);
  // As Chromium's, the window names no parent.
  const parents = new Map([...children].flatMap(([parent, kids]) => kids.map((kid) => [kid, parent] as const)).filter(([, parent]) => parent !== ROOT_PATH));
  const calls = new Map<string, number>();
  const count = (member: string): void => void calls.set(member, (calls.get(member) ?? 0) + 1);
  const client = {
    call: (target: [string, string], _iface: string, member: string, _signature?: string, body?: unknown[]): Promise<unknown[]> => {
      count(member);
      if (member === 'GetMatches') {
        const [rule] = body as [[number[]]];
        expect(rule[0][0]).toBe(1 << STATE.FOCUSED);
        return Promise.resolve([
          [
            [BUS, `/b${focused}`],
            [BUS, '/doc'],
          ],
        ]);
      }
      if (member === 'GetChildren') return Promise.resolve([(children.get(target[1]) ?? []).map((child) => [BUS, child])]);
      return Promise.reject(new Error(`no ${member}`));
    },
    property: (target: [string, string], _iface: string, name: string): Promise<unknown> => {
      count(`Get ${name}`);
      const parent = parents.get(target[1]);
      return Promise.resolve(parent === undefined ? [BUS, '/org/a11y/atspi/null'] : [BUS, parent]);
    },
  } as unknown as AtspiClient;
  return { client, calls };
}

describe('focusPathOf', () => {
  it("gives the focused node's index at each level, in calls that follow its depth, not the page's size", async () => {
    for (const rows of [100, 10_000]) {
      const { client, calls } = app(rows, rows - 7);
      expect(await focusPathOf(client, { bus: BUS })).toEqual([0, 1, rows - 7, 1]);
      expect(Object.fromEntries(calls)).toEqual({ GetMatches: 1, 'Get Parent': 6, GetChildren: 4 });
    }
  });

  it('is undefined when nothing has the focus, or the chain of parents does not reach the root', async () => {
    const { client } = app(10, 3);
    const none = { ...client, call: () => Promise.resolve([[]]) } as unknown as AtspiClient;
    expect(await focusPathOf(none, { bus: BUS })).toBeUndefined();
    const detached = { ...client, property: () => Promise.resolve([BUS, '/org/a11y/atspi/null']) } as unknown as AtspiClient;
    expect(await focusPathOf(detached, { bus: BUS })).toBeUndefined();
  });
});
