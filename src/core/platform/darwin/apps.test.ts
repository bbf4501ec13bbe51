import { describe, expect, it } from 'vitest';
import { harness } from './testing/setup';
import { electronApp, sampleApp } from './testing/fake-world';

describe('darwin app listing', () => {
  it('lists regular apps from NSWorkspace with AX window titles, marking the focused one', async () => {
    const agent = { pid: 300, name: 'Menu Extra', policy: 1, windows: [] };
    const own = { pid: 1, name: 'Deskpilot', windows: [] };
    const test = await harness([sampleApp(), electronApp(), agent, own], { focusedPid: 501 });
    expect(await test.platform.apps.list()).toEqual([
      { pid: 501, name: 'Notes', windows: [{ title: 'Untitled' }], frontmost: true },
      { pid: 777, name: 'Slack', windows: [{ title: 'Slack' }] },
    ]);
    const shapes = test.fake.callsOf('objc_msgSend').map((call) => `${call.args[1] as string}:${call.args[0] as string}`);
    expect(shapes.slice(0, 4)).toEqual(['sharedWorkspace:id', 'runningApplications:id', 'count:long', 'objectAtIndex::id']);
    expect(shapes).toContain('processIdentifier:int32');
    expect(shapes).toContain('UTF8String:cstring');
    await test.finish();
  });

  it('frontmost is the AXFocusedApplication of the system-wide element', async () => {
    const test = await harness([sampleApp(), electronApp()], { focusedPid: 777 });
    expect(await test.platform.apps.frontmost()).toMatchObject({ pid: 777, name: 'Slack', frontmost: true });
    await test.finish();
  });

  it('a frozen app is still listed, marked as not responding', async () => {
    const test = await harness([{ ...sampleApp(), hung: true }], { focusedPid: 501 });
    expect(await test.platform.apps.list()).toEqual([{ pid: 501, name: 'Notes (not responding, pid 501)', windows: [], frontmost: true }]);
    await test.finish();
  });

  it('without the Accessibility grant list() is PERMISSION_DENIED, not every app "not responding"', async () => {
    const test = await harness([sampleApp()], { focusedPid: 501, granted: false });
    await expect(test.platform.apps.list()).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await test.finish();
  });

  it('isAlive asks about the process, not AX', async () => {
    const test = await harness([sampleApp(), { ...electronApp(), dead: true }]);
    expect(await test.platform.apps.isAlive(501)).toBe(true);
    expect(await test.platform.apps.isAlive(777)).toBe(false);
    await test.finish();
  });
});

describe('createDarwinPlatform without macOS', () => {
  it('reports unloadable libraries as UI_NOT_AVAILABLE', async () => {
    const { createDarwinPlatform } = await import('./index');
    await expect(createDarwinPlatform()).rejects.toMatchObject({ code: 'UI_NOT_AVAILABLE', message: expect.stringContaining('could not be loaded') });
  });
});
