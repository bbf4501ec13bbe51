import { describe, expect, it } from 'vitest';
import { AxClient } from './ax-client';
import { CfRuntime } from './cf';
import { assertAccessibility, checkAccessibility, requestAccessibility } from './permissions';
import { FakeNative, asNative } from './testing/fake-native';
import { sampleApp, type FakeApp } from './testing/fake-world';

function client(world: { trusted: boolean; granted: boolean; focusedPid?: number }, apps: FakeApp[] = [sampleApp()]) {
  const fake = new FakeNative({ apps, ...world });
  const cf = new CfRuntime(asNative(fake));
  return { fake, cf, client: new AxClient(cf, () => true) };
}

describe('darwin permissions', () => {
  it('confirms the grant with a real AX call on the focused foreign app', async () => {
    const { fake, cf, client: ax } = client({ trusted: true, granted: true, focusedPid: 501 });
    expect(await checkAccessibility(ax, [1])).toEqual({ trusted: true, verified: 'granted', granted: true });
    expect(fake.callsOf('AXUIElementCopyAttributeValue').map((call) => call.args[1])).toEqual(['AXFocusedApplication', 'AXRole']);
    cf.dispose();
    expect(fake.leaks()).toEqual([]);
  });

  it('when Deskpilot itself is focused, probes another running app (Finder first), not only AXIsProcessTrusted', async () => {
    const own = { pid: 1, name: 'Deskpilot', windows: [] };
    const finder = { pid: 90, name: 'Finder', bundleId: 'com.apple.finder', windows: [] };
    const { fake, cf, client: ax } = client({ trusted: false, granted: true, focusedPid: 1 }, [own, sampleApp(), finder]);
    expect(await checkAccessibility(ax, [1])).toEqual({ trusted: false, verified: 'granted', granted: true });
    expect(fake.callsOf('AXUIElementCreateApplication').map((call) => call.args[0])).toEqual([90]);
    expect(fake.callsOf('AXUIElementCopyAttributeValue').map((call) => call.args[1])).toEqual(['AXFocusedApplication', 'AXRole']);
    cf.dispose();
    expect(fake.leaks()).toEqual([]);
  });

  it('a stale grant is denied even when Deskpilot is the focused app', async () => {
    const own = { pid: 1, name: 'Deskpilot', windows: [] };
    const { cf, client: ax } = client({ trusted: true, granted: false, focusedPid: 1 }, [own, sampleApp()]);
    // The system-wide read already fails with APIDisabled, before any probe.
    expect(await checkAccessibility(ax, [1])).toMatchObject({ verified: 'denied', granted: false });
    cf.dispose();
  });

  it('reports a stale grant (trusted, yet calls fail) as denied', async () => {
    const { fake, cf, client: ax } = client({ trusted: true, granted: false, focusedPid: 501 });
    expect(await checkAccessibility(ax, [1])).toEqual({ trusted: true, verified: 'denied', granted: false });
    await expect(assertAccessibility(ax)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('Privacy & Security → Accessibility'),
    });
    cf.dispose();
    expect(fake.leaks()).toEqual([]);
  });

  it('requests with AXIsProcessTrustedWithOptions({kAXTrustedCheckOptionPrompt: kCFBooleanTrue}) and releases the dictionary', () => {
    const { fake } = client({ trusted: false, granted: false });
    expect(requestAccessibility(asNative(fake))).toBe(false);
    const [create] = fake.callsOf('CFDictionaryCreate');
    expect(create?.args).toEqual([
      null,
      [fake.kAXTrustedCheckOptionPrompt],
      [fake.kCFBooleanTrue],
      1,
      fake.kCFTypeDictionaryKeyCallBacks,
      fake.kCFTypeDictionaryValueCallBacks,
    ]);
    const [ask] = fake.callsOf('AXIsProcessTrustedWithOptions');
    expect(fake.calls.findIndex((call) => call === ask)).toBeLessThan(fake.calls.findIndex((call) => call.name === 'CFRelease'));
    expect(fake.leaks()).toEqual([]);
  });

  it('caps the probe at the messaging timeout, so a hung app in front costs 1.5 s, not the default 6 s (issue 29, point 11)', async () => {
    const hung = { ...sampleApp(), hung: true };
    const finder = { pid: 90, name: 'Finder', bundleId: 'com.apple.finder', windows: [] };
    const { fake, cf, client: ax } = client({ trusted: true, granted: true, focusedPid: 501 }, [hung, finder]);
    const status = await checkAccessibility(ax, [1]);
    expect(status).toMatchObject({ verified: 'unknown', granted: true });
    expect(fake.timeoutSeconds).toBe(1.5);
    expect(fake.world.clockMs).toBe(1500);
    cf.dispose();
    expect(fake.leaks()).toEqual([]);
  });

  it("leaves out every one of Deskpilot's own pids, the main process's too, when it picks the app to probe (issue 29, point 11)", async () => {
    const main = { pid: 40, name: 'Deskpilot', windows: [] };
    const finder = { pid: 90, name: 'Finder', bundleId: 'com.apple.finder', windows: [] };
    const { fake, cf, client: ax } = client({ trusted: true, granted: true, focusedPid: 40 }, [main, finder]);
    expect(await checkAccessibility(ax, [41, 40])).toMatchObject({ verified: 'granted' });
    expect(fake.callsOf('AXUIElementCreateApplication').map((call) => call.args[0])).toEqual([90]);
    cf.dispose();
    expect(fake.leaks()).toEqual([]);
  });
});
