/** The error rows of the action contract against real processes: gone, killed, frozen, no display. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ActionEngine } from '../../src/core/actions/engine';
import { createLinuxPlatform } from '../../src/core/platform/linux';
import { systemDeps } from '../../src/core/platform/linux/session-discovery';
import { AtspiClient } from '../../src/core/platform/linux/client';
import { findNodes } from '../../src/core/ui/query';
import { startDesktop, type Desktop, type LaunchedApp } from './desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('Linux error rows', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await startDesktop();
    // Every app the tests use starts here, side by side, rather than each at its test: a launch is
    // mostly waiting (for the app to register, then for its tree to settle). They are all up before
    // the first test, so no launch competes with a test's reads (whose deadlines a busy machine tests).
    await Promise.all([unchangedFixture(), fixtureToKill(), appToFreeze()]);
  }, 60_000);

  afterAll(async () => desktop?.stop());

  /** The fixture for the tests that leave it as it was (nothing runs, or the input cannot): one launch serves them. */
  let unchanged: Promise<LaunchedApp> | undefined;
  const unchangedFixture = (): Promise<LaunchedApp> => (unchanged ??= desktop.launchFixture());
  /** A fixture of its own for the test that kills it, and an app for the test that freezes it. */
  let toKill: Promise<LaunchedApp> | undefined;
  const fixtureToKill = (): Promise<LaunchedApp> => (toKill ??= desktop.launchFixture());
  let toFreeze: Promise<LaunchedApp> | undefined;
  const appToFreeze = (): Promise<LaunchedApp> => (toFreeze ??= desktop.launch('gtk3-widget-factory'));

  async function idOf(pid: number, name: string): Promise<string> {
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    const match = findNodes(root, { name })[0];
    if (match === undefined) throw new Error(`no ${name}`);
    return match.node.id;
  }

  it('an unknown id is NODE_NOT_FOUND with candidates, and nothing runs', async () => {
    const { pid } = await unchangedFixture();
    const id = await idOf(pid, 'Enable feature');
    const result = await desktop.engine.run(pid, { action: 'click', id: `${id}x` });
    expect(result).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    expect(result.error?.data?.['candidates']).toContainEqual(expect.objectContaining({ id }));
  });

  it('an app killed between resolve and execute is PROCESS_EXITED', async () => {
    const { pid, child } = await fixtureToKill();
    const id = await idOf(pid, 'Enable feature');
    const accessibility = desktop.platform.accessibility;
    const getTree = accessibility.getTree.bind(accessibility);
    const engine = new ActionEngine({
      platform: {
        ...desktop.platform,
        accessibility: {
          ...accessibility,
          press: accessibility.press.bind(accessibility),
          setValue: accessibility.setValue.bind(accessibility),
          focus: accessibility.focus.bind(accessibility),
          getTree: async (target, options) => {
            const tree = await getTree(target, options);
            child.kill('SIGKILL');
            await new Promise((resolve) => child.once('exit', resolve));
            return tree;
          },
        },
      },
    });
    const result = await engine.run(pid, { action: 'click', id });
    expect(result).toMatchObject({ success: false, error: { code: 'PROCESS_EXITED', message: `process not running (pid ${pid})` } });
  });

  it('a frozen app gives TIMEOUT, and listing apps asks it only with a short deadline', async () => {
    const { pid, child } = await appToFreeze();
    process.kill(pid, 'SIGSTOP');
    // The deadlines the backend passes are read off its calls, not off a clock a busy machine slows.
    const calls = vi.spyOn(AtspiClient.prototype, 'call');
    const properties = vi.spyOn(AtspiClient.prototype, 'property');
    try {
      // TIMEOUT is the backend's own per-call deadline firing: a hang would end at the test's timeout instead.
      const failure = await desktop.platform.accessibility.getTree(pid, { fresh: true }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'TIMEOUT' });
      calls.mockClear();
      properties.mockClear();
      const apps = await desktop.platform.apps.list();
      expect(apps.find((app) => app.pid === pid)?.name).toMatch(/not responding/);
      // Every question listing asks an app has the listing's short leash (500 ms), not the 2 s a call gets.
      const toApps = calls.mock.calls.filter(([target]) => target[0] !== 'org.a11y.atspi.Registry');
      const deadlines = [...toApps.map((call) => call[5]), ...properties.mock.calls.map((call) => call[3])];
      expect(deadlines.length).toBeGreaterThan(0);
      for (const deadline of deadlines) expect(deadline).toBeLessThanOrEqual(500);
    } finally {
      calls.mockRestore();
      properties.mockRestore();
      process.kill(pid, 'SIGCONT');
      child.kill();
    }
  });

  it('synthetic input without a display is UI_NOT_AVAILABLE, not a crash', async () => {
    const { pid } = await unchangedFixture();
    const platform = await createLinuxPlatform({ ...desktop.session.env, DISPLAY: ':4711' });
    try {
      const engine = new ActionEngine({ platform });
      const { root } = await engine.observe(pid);
      const id = findNodes(root, { name: 'Items', role: 'list' })[0]?.node.id as string;
      const result = await engine.run(pid, { action: 'scroll', id });
      expect(result).toMatchObject({ success: false, error: { code: 'UI_NOT_AVAILABLE', message: expect.stringContaining('no X server listens on :4711') } });
    } finally {
      await platform.close();
    }
  });

  it('no session bus at all is UI_NOT_AVAILABLE with a hint', async () => {
    // The platform is made at once and connects on the first call, which says why it cannot.
    // Discovery looks nowhere, so a desktop on this machine is not found instead.
    const platform = await createLinuxPlatform({}, { ...systemDeps(), runUserDir: '/nonexistent', x11SocketDir: '/nonexistent' });
    await expect(platform.apps.list()).rejects.toMatchObject({
      code: 'UI_NOT_AVAILABLE',
      message: expect.stringContaining('DBUS_SESSION_BUS_ADDRESS'),
      data: { reason: 'no-a11y-bus' },
    });
    await platform.close();
  });
});
