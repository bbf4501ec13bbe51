import { describe, expect, it } from 'vitest';
import { ROOT_PATH, STATE } from '../../../../native/linux/atspi';
import type { AppDirectory } from './apps';
import type { AtspiClient, TreeEvent } from './client';
import { createFocusPath, focusPathOf } from './focus-path';

const BUS = ':1.9';

/** A page of `rows` rows of a cell and a button under a document; the button of row `focused` has the focus (a view above it says so too, listed after it, as Chromium's). */
function app(rows: number, initiallyFocused: number) {
  let focused = initiallyFocused;
  let duringMatches = (): void => undefined;
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
        duringMatches();
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
  return {
    client,
    calls,
    focus: (row: number) => void (focused = row),
    whileAsked: (then: () => void) => void (duringMatches = then),
  };
}

/** The fake app with events and a subscription, as createFocusPath uses them. */
function watchedApp(rows: number, focused: number) {
  const base = app(rows, focused);
  const listeners = new Set<(event: TreeEvent) => void>();
  let token: object | undefined;
  const client = Object.assign(base.client, {
    onTreeEvent: (listener: (event: TreeEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isWatched: () => token !== undefined,
    watchToken: () => token,
  });
  const observe = (): Promise<void> => {
    token ??= {};
    return Promise.resolve();
  };
  const apps = { get: () => Promise.resolve({ bus: BUS, bridge: { collection: true } }) } as unknown as AppDirectory;
  const sendFrom = (bus: string, path: string, detail1: number, member = 'StateChanged'): void => {
    for (const listener of listeners) listener({ bus, path, member, detail: 'focused', detail1, data: 0 });
  };
  const send = (path: string, detail1: number, member = 'StateChanged'): void => sendFrom(BUS, path, detail1, member);
  return {
    ...base,
    focusPath: createFocusPath(client, apps, observe),
    send,
    sendFrom,
    unwatch: () => void (token = undefined),
    matches: () => base.calls.get('GetMatches') ?? 0,
  };
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

describe('createFocusPath', () => {
  it('asks the app once per subscription; its focus events say the rest', async () => {
    const page = watchedApp(10_000, 40);
    expect(await page.focusPath(1)).toEqual([0, 1, 40, 1]);
    expect(page.matches()).toBe(1);
    // The user tabs on: the event says where, and the query (a scan of the whole app) is not made again.
    page.send('/b40', 0);
    page.send('/c41', 1);
    expect(await page.focusPath(1)).toEqual([0, 1, 41, 0]);
    page.send('/b9000', 1, 'Focus');
    expect(await page.focusPath(1)).toEqual([0, 1, 9000, 1]);
    expect(page.matches()).toBe(1);
  });

  it('asks again when the events may have been missed or do not say where the focus went', async () => {
    const page = watchedApp(100, 5);
    await page.focusPath(1);
    // Unwatched a while (a dropped mirror): another subscription, events lost between.
    page.unwatch();
    page.focus(7);
    expect(await page.focusPath(1)).toEqual([0, 1, 7, 1]);
    expect(page.matches()).toBe(2);
    // The focus left its node without saying for where (another window took it).
    page.send('/b7', 0);
    page.focus(8);
    expect(await page.focusPath(1)).toEqual([0, 1, 8, 1]);
    expect(page.matches()).toBe(3);
    // The node the event named is gone from the tree.
    page.send('/gone', 1);
    expect(await page.focusPath(1)).toEqual([0, 1, 8, 1]);
    expect(page.matches()).toBe(4);
  });

  it('keeps a focus event heard while the app was being asked over the older answer', async () => {
    const page = watchedApp(100, 5);
    // The event comes after the question went out, before its answer is used.
    page.whileAsked(() => page.send('/b60', 1));
    expect(await page.focusPath(1)).toEqual([0, 1, 5, 1]);
    expect(await page.focusPath(1)).toEqual([0, 1, 60, 1]);
    expect(page.matches()).toBe(1);
  });

  it('keeps the focus of at most 64 apps, the oldest making way', async () => {
    const page = watchedApp(100, 5);
    expect(await page.focusPath(1)).toEqual([0, 1, 5, 1]);
    // 64 other apps announce a focus: this app's is no longer kept, and it is asked again.
    for (let other = 0; other < 64; other += 1) page.sendFrom(`:2.${other}`, '/x', 1);
    expect(await page.focusPath(1)).toEqual([0, 1, 5, 1]);
    expect(page.matches()).toBe(2);
  });
});
