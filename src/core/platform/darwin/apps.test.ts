import { describe, expect, it } from 'vitest';
import { defaultOwnPids } from './index';
import { harness } from './testing/setup';
import { electronApp, sampleApp, type FakeApp } from './testing/fake-world';

describe('darwin app listing', () => {
  it('lists regular apps from NSWorkspace with AX window titles and bundle ids (as desktopId), marking the focused one', async () => {
    const agent = { pid: 300, name: 'Menu Extra', policy: 1, windows: [] };
    const own = { pid: 1, name: 'Deskpilot', windows: [] };
    const test = await harness([sampleApp(), electronApp(), agent, own], { focusedPid: 501 });
    expect(await test.platform.apps.list()).toEqual([
      { pid: 501, name: 'Notes', windows: [{ title: 'Untitled' }], desktopId: 'com.example.notes', frontmost: true },
      { pid: 777, name: 'Slack', windows: [{ title: 'Slack' }], desktopId: 'com.tinyspeck.slackmacgap' },
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
    expect(await test.platform.apps.list()).toEqual([
      { pid: 501, name: 'Notes (not responding, pid 501)', windows: [], desktopId: 'com.example.notes', frontmost: true },
    ]);
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

describe('darwin app listing without a turning run loop (issue 20, point 1)', () => {
  it('sees apps launched and quit after the first list, though NSWorkspace keeps answering its first list', async () => {
    const apps: FakeApp[] = [sampleApp()];
    const test = await harness(apps, { focusedPid: 501 });
    expect((await test.platform.apps.list()).map((app) => app.pid)).toEqual([501]);
    apps.push(electronApp());
    apps.splice(0, 1);
    expect(await test.platform.apps.list()).toEqual([{ pid: 777, name: 'Slack', windows: [{ title: 'Slack' }], desktopId: 'com.tinyspeck.slackmacgap' }]);
    // The fresh answer came from the WindowServer's window list and a lookup per pid.
    expect(test.fake.callsOf('CGWindowListCopyWindowInfo').map((call) => call.args)).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(
      test.fake
        .callsOf('objc_msgSend')
        .filter((call) => call.args[1] === 'runningApplicationWithProcessIdentifier:')
        .map((call) => call.args[2]),
    ).toEqual(expect.arrayContaining([501, 777]));
    await test.finish();
  });

  it('frontmost names an app launched after the first list', async () => {
    const apps: FakeApp[] = [sampleApp()];
    const test = await harness(apps, { focusedPid: 501 });
    await test.platform.apps.list();
    apps.push(electronApp());
    test.fake.world.focusedPid = 777;
    expect(await test.platform.apps.frontmost()).toMatchObject({ pid: 777, name: 'Slack' });
    await test.finish();
  });

  it('a browser started after the first list is still known as one, and gets AXEnhancedUserInterface', async () => {
    const apps: FakeApp[] = [sampleApp()];
    const test = await harness(apps);
    await test.platform.apps.list();
    const chrome: FakeApp = { ...sampleApp(900), name: 'Google Chrome', bundleId: 'com.google.Chrome' };
    apps.push(chrome);
    await test.platform.accessibility.getTree(900, { maxNodes: 5 });
    expect(chrome.appSets).toContain('AXEnhancedUserInterface');
    await test.finish();
  });
});

describe("Deskpilot's own processes (issue 20, point 9)", () => {
  it('neither the automation host nor the Electron main process is listed or frontmost', async () => {
    const host = { pid: 41, name: 'Deskpilot Helper', windows: [] };
    const main = { pid: 40, name: 'Deskpilot', windows: [{ role: 'AXWindow', title: 'Chat' }] };
    const test = await harness([sampleApp(), main, host], { focusedPid: 40 }, { ownPids: [41, 40] });
    expect((await test.platform.apps.list()).map((app) => app.pid)).toEqual([501]);
    expect(await test.platform.apps.frontmost()).toBeUndefined();
    await test.finish();
  });

  it('by default they are this process and the main process the host was started for (--main-pid=)', () => {
    expect(defaultOwnPids(['node', 'host.js', '--main-pid=40'], 41)).toEqual([41, 40]);
    expect(defaultOwnPids(['node', 'deskpilot'], 41)).toEqual([41]);
    expect(defaultOwnPids(['node', 'host.js', '--main-pid=nope'], 41)).toEqual([41]);
  });
});

describe('createDarwinPlatform without macOS', () => {
  // On a Mac the libraries load: this is about every other OS (issue 29, point 1).
  it.skipIf(process.platform === 'darwin')('reports unloadable libraries as UI_NOT_AVAILABLE', async () => {
    const { createDarwinPlatform } = await import('./index');
    await expect(createDarwinPlatform()).rejects.toMatchObject({ code: 'UI_NOT_AVAILABLE', message: expect.stringContaining('could not be loaded') });
  });
});
