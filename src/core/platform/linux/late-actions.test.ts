import { describe, expect, it } from 'vitest';
import { IFACE } from '../../../../native/linux/atspi';
import { AtspiAccessibility } from './accessibility';
import type { AppDirectory } from './apps';
import { bridgeOf } from './bridges';
import type { AtspiClient, AtspiRef } from './client';

/**
 * A fresh Firefox page sends its actions and extents late (accessibility.ts pressIndex, and
 * bounds through readExtents): a check box answers no actions, and extents (-1, -1, -1, -1), to its first asks.
 * The fake node does so for its first `lateAsks` asks of each, then answers as Gecko does
 * (a garbled GetActions, the name through GetName). Pauses are counted, never waited.
 */
/** The bridges the tests run as: Firefox's, whose facts come late, and a GTK 3 app's. */
const TOOLKITS = { gecko: bridgeOf('Gecko', '153.7.0'), gtk3: bridgeOf('GTK', '3.24.38') };

function fakeNode(options: { kind: keyof typeof TOOLKITS; lateActions: number; lateExtents: number; actionName?: string }) {
  const counts = { getActions: 0, extents: 0, pauses: 0, done: [] as number[] };
  const ready = (): boolean => counts.getActions > options.lateActions;
  const client = {
    onTreeEvent: () => () => undefined,
    onClose: () => undefined,
    call: async (_ref: [string, string], iface: string, method: string, _signature?: string, args?: unknown[]) => {
      if (method === 'GetActions') {
        counts.getActions += 1;
        return [ready() ? [[';;', ';;', ';;']] : []];
      }
      if (method === 'GetName') return [options.actionName ?? 'check'];
      if (method === 'DoAction') {
        counts.done.push(args?.[0] as number);
        return [true];
      }
      if (iface === IFACE.component && method === 'GetExtents') {
        counts.extents += 1;
        return [counts.extents > options.lateExtents ? [332, 183, 14, 14] : [-1, -1, -1, -1]];
      }
      throw new Error(`unexpected ${method}`);
    },
    property: async (_ref: [string, string], _iface: string, name: string) => {
      if (name === 'NActions') return ready() ? 1 : 0;
      throw new Error(`unexpected ${name}`);
    },
  } as unknown as AtspiClient;
  const apps = { get: async () => ({ bus: ':1.5', bridge: TOOLKITS[options.kind] }) } as unknown as AppDirectory;
  const accessibility = new AtspiAccessibility(client, apps, { pause: async () => void (counts.pauses += 1) });
  const ref: AtspiRef = { pid: 1, bus: ':1.5', path: '/box', interfaces: [IFACE.accessible, IFACE.action, IFACE.component], role: 0, gtk4: false };
  return { accessibility, ref, counts };
}

describe('a Gecko node whose actions come late', () => {
  it('is asked again while it answers no actions, then pressed once', async () => {
    const { accessibility, ref, counts } = fakeNode({ kind: 'gecko', lateActions: 2, lateExtents: 0 });
    expect(await accessibility.press(ref)).toBe(true);
    expect(counts).toMatchObject({ getActions: 3, pauses: 2, done: [0] });
  });

  it('gives up after a bound when no action ever comes, so the engine can say so', async () => {
    const { accessibility, ref, counts } = fakeNode({ kind: 'gecko', lateActions: Infinity, lateExtents: 0 });
    expect(await accessibility.press(ref)).toBe(false);
    expect(counts.getActions).toBe(10);
    expect(counts.done).toEqual([]);
  });

  it('is not asked again when it has actions but none presses', async () => {
    const { accessibility, ref, counts } = fakeNode({ kind: 'gecko', lateActions: 0, lateExtents: 0, actionName: 'showContextMenu' });
    expect(await accessibility.press(ref)).toBe(false);
    expect(counts).toMatchObject({ getActions: 1, pauses: 0 });
  });

  it('other toolkits are taken at their first answer', async () => {
    const { accessibility, ref, counts } = fakeNode({ kind: 'gtk3', lateActions: 2, lateExtents: 0 });
    expect(await accessibility.press(ref)).toBe(false);
    expect(counts).toMatchObject({ getActions: 1, pauses: 0 });
  });
});

describe('a Gecko node whose extents come late', () => {
  it('is asked again while its extents are (-1, -1, -1, -1), then placed', async () => {
    const { accessibility, ref, counts } = fakeNode({ kind: 'gecko', lateActions: 0, lateExtents: 5 });
    expect(await accessibility.bounds(ref)).toEqual({ x: 332, y: 183, width: 14, height: 14 });
    expect(counts.pauses).toBe(5);
  });

  it('is unknown after a bound when its extents never come', async () => {
    const { accessibility, ref, counts } = fakeNode({ kind: 'gecko', lateActions: 0, lateExtents: Infinity });
    expect(await accessibility.bounds(ref)).toBeUndefined();
    // Ten asks here, then readExtents' own three.
    expect(counts.extents).toBe(13);
  });
});
