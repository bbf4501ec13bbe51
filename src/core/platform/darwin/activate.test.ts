import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { ACTIVATE_WAIT_MS } from '../frontmost-wait';
import { harness } from './testing/setup';
import { button, electronApp, sampleApp, type FakeApp, type FakeNode } from './testing/fake-world';

describe('darwin activate', () => {
  it('sets AXFrontmost = kCFBooleanTrue on a fresh app element, releases it, and sees the app in front', async () => {
    const notes = sampleApp();
    const test = await harness([notes, electronApp()], { focusedPid: 777 });
    const before = test.fake.calls.length;
    expect(await test.platform.apps.activate?.(501)).toBe(true);
    // Attribute names are CFStrings the runtime creates once and keeps; they are not part of the exchange.
    const calls = test.fake.calls.slice(before).filter((call) => call.name !== 'CFStringCreateWithCString');
    // The first calls: create the app element, set the attribute on it, release it; then frontmost() polls.
    expect(calls.slice(0, 3).map((call) => call.name)).toEqual(['AXUIElementCreateApplication', 'AXUIElementSetAttributeValue', 'CFRelease']);
    const [create, set, release] = calls;
    expect(create?.args).toEqual([501]);
    expect(set?.args.slice(1)).toEqual(['AXFrontmost', { kind: 'boolean', value: true }]);
    expect(set?.async).toBe(true);
    expect(release?.args).toEqual([set?.args[0]]);
    // kCFBooleanTrue is borrowed, never released.
    expect(calls.filter((call) => call.name === 'CFRelease' && call.args[0] === test.fake.kCFBooleanTrue)).toEqual([]);
    expect(notes.appSets).toEqual(['AXFrontmost']);
    // In front at the first look: no polling sleeps.
    expect(test.sleeps).toEqual([]);
    expect(await test.platform.apps.frontmost()).toMatchObject({ pid: 501 });
    // finish() checks that the app element and every copy were released exactly once.
    await test.finish();
  });

  it('answers false when the app refuses, without polling, and still releases the element', async () => {
    const test = await harness([{ ...sampleApp(), refusesFront: true }, electronApp()], { focusedPid: 777 });
    expect(await test.platform.apps.activate?.(501)).toBe(false);
    expect(test.sleeps).toEqual([]);
    expect((await test.platform.apps.frontmost())?.pid).toBe(777);
    await test.finish();
  });

  it('polls frontmost for the activation wait when the set succeeds but the app stays behind', async () => {
    const test = await harness([{ ...sampleApp(), refusesFront: 'silently' }, electronApp()], { focusedPid: 777 });
    expect(await test.platform.apps.activate?.(501)).toBe(false);
    expect(test.sleeps).toEqual(Array(ACTIVATE_WAIT_MS / 50).fill(50));
    await test.finish();
  });

  it('activates the app first, then makes main and raises the window that holds the element acted on (issue 29, point 6)', async () => {
    const first: FakeNode = { role: 'AXWindow', title: 'First', children: [button('One')] };
    const second: FakeNode = { role: 'AXWindow', title: 'Second', children: [button('Other')] };
    const notes: FakeApp = { ...sampleApp(), windows: [first, second] };
    const test = await harness([notes, electronApp()], { focusedPid: 777 });
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 30 });
    const other = tree.children?.[1]?.children?.[0];
    expect(other?.name).toBe('Other');
    await test.platform.accessibility.press(other?.ref, {} as UiNode);
    expect(await test.platform.apps.activate?.(501)).toBe(true);
    expect(second.log).toEqual(['set AXMain true', 'perform AXRaise']);
    expect(first.log).toBeUndefined();
    // AXMain before AXFrontmost focused the wrong window on macOS 26 (Hammerspoon2#228).
    const order = test.fake.calls
      .filter((call) => call.name === 'AXUIElementSetAttributeValue' || call.name === 'AXUIElementPerformAction')
      .map((call) => call.args[1]);
    expect(order.slice(-3)).toEqual(['AXFrontmost', 'AXMain', 'AXRaise']);
    // The raise put Second first in AXWindows; a second activation finds it by its key, not by the old index 1.
    expect(notes.windows[0]).toBe(second);
    expect(await test.platform.apps.activate?.(501)).toBe(true);
    expect(first.log).toBeUndefined();
    expect(second.log?.filter((entry) => entry === 'perform AXRaise')).toHaveLength(2);
    await test.finish();
  });

  it('a stale grant is PERMISSION_DENIED, not a refusal', async () => {
    const test = await harness([sampleApp()], { focusedPid: 501, granted: false });
    await expect(test.platform.apps.activate?.(501)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await test.finish();
  });
});
