import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import type { Point } from '../types';
import { harness, type Harness } from './testing/setup';
import { sampleApp, type FakeApp, type FakeWindowInfo } from './testing/fake-world';

const NOTES = 501;
const SAFARI = 900;
const DOCK = 950;

/** Notes' document window, as the sample app's AX frame gives it (100,50 800×600). */
const notesWindow: FakeWindowInfo = { pid: NOTES, number: 50101, bounds: { x: 100, y: 50, width: 800, height: 600 } };

/** The sample app without its 1000-row list, which each engine run would read twice for nothing. */
function notes(): FakeApp {
  const app = sampleApp(NOTES);
  for (const window of app.windows) window.children = (window.children ?? []).filter((child) => child.role !== 'AXScrollArea');
  return app;
}

const others: FakeApp[] = [
  { pid: SAFARI, name: 'Safari', windows: [] },
  { pid: DOCK, name: 'Dock', windows: [] },
];

async function at(windowList: FakeWindowInfo[], point: Point): Promise<{ owner: unknown; test: Harness }> {
  const test = await harness([notes(), ...others], { windowList });
  const owner = await test.platform.apps.windowAt?.(point);
  return { owner, test };
}

describe('darwin windowAt: whose window a click at a point lands in', () => {
  it('another app’s window lying over the target at the point is the owner', async () => {
    const over: FakeWindowInfo = { pid: SAFARI, number: 90001, bounds: { x: 200, y: 100, width: 300, height: 200 } };
    const { owner, test } = await at([over, notesWindow], { x: 250, y: 150 });
    expect(owner).toEqual({ pid: SAFARI });
    // Asked of the on-screen list only, front to back, with no window to be relative to.
    expect(test.fake.calls.filter((call) => call.name === 'CGWindowListCopyWindowInfo').map((call) => call.args)).toEqual([[1, 0]]);
    await test.finish();
  });

  it('the target on top is the owner, and a window of another app beside the point does not count', async () => {
    const beside: FakeWindowInfo = { pid: SAFARI, number: 90001, bounds: { x: 600, y: 100, width: 300, height: 200 } };
    const behind: FakeWindowInfo = { pid: SAFARI, number: 90002, bounds: { x: 0, y: 0, width: 1440, height: 900 } };
    const { owner, test } = await at([beside, notesWindow, behind], { x: 250, y: 150 });
    expect(owner).toEqual({ pid: NOTES });
    await test.finish();
  });

  it('a fully transparent overlay is passed over; one barely visible, or on a higher layer like the Dock, is not', async () => {
    const overlay: FakeWindowInfo = { pid: SAFARI, number: 90003, bounds: { x: 0, y: 0, width: 1440, height: 900 }, alpha: 0 };
    const transparent = await at([overlay, notesWindow], { x: 250, y: 150 });
    expect(transparent.owner).toEqual({ pid: NOTES });
    await transparent.test.finish();

    const faint = await at([{ ...overlay, alpha: 0.05 }, notesWindow], { x: 250, y: 150 });
    expect(faint.owner).toEqual({ pid: SAFARI });
    await faint.test.finish();

    // The Dock sits above layer 0 and takes the click itself.
    const dock: FakeWindowInfo = { pid: DOCK, number: 95001, layer: 20, bounds: { x: 300, y: 600, width: 800, height: 70 } };
    const onDock = await at([dock, notesWindow], { x: 400, y: 620 });
    expect(onDock.owner).toEqual({ pid: DOCK });
    await onDock.test.finish();
  });

  it('no window at the point, or none on screen there, is undefined; edges are half-open', async () => {
    const minimized: FakeWindowInfo = { pid: SAFARI, number: 90004, bounds: { x: 0, y: 0, width: 1440, height: 900 }, offScreen: true };
    const bare = await at([minimized, notesWindow], { x: 20, y: 20 });
    expect(bare.owner).toBeUndefined();
    await bare.test.finish();

    const edge = await at([notesWindow], { x: 900, y: 650 });
    expect(edge.owner).toBeUndefined();
    await edge.test.finish();

    const empty = await at([], { x: 250, y: 150 });
    expect(empty.owner).toBeUndefined();
    await empty.test.finish();
  });
});

describe('darwin: synthetic input over another app’s window (issue 25, point 4)', () => {
  /** The sample's "Custom" button offers no AXPress, so a click on it is a synthetic one. */
  async function clickCustom(windowList: FakeWindowInfo[]) {
    const test = await harness([notes(), ...others], { windowList, focusedPid: NOTES });
    const engine = new ActionEngine({ platform: test.platform, clock: new FakeClock() });
    const { root } = await engine.observe(NOTES);
    const custom = (root.children?.[0]?.children ?? []).find((child: UiNode) => child.name === 'Custom') as UiNode;
    const result = await engine.run(NOTES, { action: 'click', id: custom.id, settleMs: 0 });
    return { test, result };
  }

  it('a click is refused, with no CGEvent posted, when another app’s window covers the point', async () => {
    const cover: FakeWindowInfo = { pid: SAFARI, number: 90001, bounds: { x: 0, y: 0, width: 1440, height: 900 } };
    const { test, result } = await clickCustom([cover, notesWindow]);
    expect(result).toMatchObject({ success: false, error: { code: 'ACTION_FAILED', message: expect.stringMatching(/covered by another window/) } });
    // The other app is not named, not even by pid.
    expect(result.error?.message).not.toContain(String(SAFARI));
    expect(test.fake.posted).toEqual([]);
    expect(test.nut.calls).toEqual([]);
    await test.finish();
  });

  it('the same click is posted when the app’s own window is on top there', async () => {
    const behind: FakeWindowInfo = { pid: SAFARI, number: 90001, bounds: { x: 0, y: 0, width: 1440, height: 900 } };
    const { test, result } = await clickCustom([notesWindow, behind]);
    expect(result).toMatchObject({ success: true, method: 'input' });
    expect(test.fake.posted.length + test.nut.calls.length).toBeGreaterThan(0);
    await test.finish();
  });
});
