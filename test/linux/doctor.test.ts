/**
 * `deskpilot doctor` against parts broken on purpose: no X server, a registry that is gone or
 * frozen, IsEnabled false, no window manager, a provider that refuses the key and one that
 * is not listening. Each must show ✗ with the right fix, and no run may hang.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxPlatform } from '../../src/core/platform/linux';
import type { DoctorCheck, DoctorReport } from '../../src/shared/ipc';
import { runCli, type CliRun } from './run-cli';
import { hasHeadlessTools, setAccessibilityEnabled, startSession, waitFor, type HeadlessSession } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
/** A doctor run on a broken desktop must still end well within this. */
const DEADLINE_MS = 10_000;

/** The session's registry, started by D-Bus activation on the first call that needs it. */
async function registryOf(session: HeadlessSession): Promise<number> {
  return waitFor(
    () =>
      session.processIds().find((each) => {
        try {
          return readFileSync(`/proc/${each}/comm`, 'utf8').trim() === 'at-spi2-registr';
        } catch {
          return false;
        }
      }),
    5000,
    'the session’s AT-SPI registry',
  );
}

async function doctor(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ run: CliRun; report: DoctorReport; check: (id: DoctorCheck['id']) => DoctorCheck }> {
  const result = await runCli(['doctor', '--json', ...args], env, DEADLINE_MS);
  expect(result.lingered, result.stderr).toBe(false);
  const report = JSON.parse(result.stdout) as DoctorReport;
  return {
    run: result,
    report,
    check: (id) => {
      const found = report.checks.find((check) => check.id === id);
      if (found === undefined) throw new Error(`no ${id} check in ${result.stdout}`);
      return found;
    },
  };
}

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })),
  );
}

const provider = (url: string): NodeJS.ProcessEnv => ({
  DESKPILOT_PROVIDER: 'openai',
  DESKPILOT_BASE_URL: url,
  DESKPILOT_API_KEY: 'sk-wrong',
  DESKPILOT_MODEL: 'tiny',
});

describe.skipIf(!run)('deskpilot doctor on broken parts', () => {
  let desktop: HeadlessSession;
  let bare: HeadlessSession;
  let refusing: { server: Server; url: string };
  let closedUrl: string;

  beforeAll(async () => {
    [desktop, bare] = await Promise.all([startSession({ openbox: true }), startSession()]);
    const zenity = desktop.launch('zenity', ['--entry', '--title=Doctor', '--text=Name']);
    refusing = await listen((_request, response) => response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}'));
    const closing = await listen(() => undefined);
    closedUrl = closing.url;
    await new Promise((resolve) => closing.server.close(resolve));
    // Asked in this process, not by a CLI start a poll: the checks below are the CLI's.
    const platform = await createLinuxPlatform(desktop.env);
    try {
      await waitFor(
        async () => ((await platform.apps.list()).some((app) => app.pid === zenity.pid && app.windows.length > 0) ? true : undefined),
        15_000,
        'zenity to register with AT-SPI',
      );
    } finally {
      await platform.close();
    }
  }, 60_000);

  afterAll(async () => {
    refusing?.server.close();
    await Promise.all([desktop?.stop(), bare?.stop()]);
  });

  it('passes the desktop checks on a working session, and names a provider that refuses the key', async () => {
    const { run: result, check } = await doctor({ ...desktop.env, ...provider(refusing.url) }, '--online');
    for (const id of ['display', 'a11y-bus', 'a11y-enabled', 'registry', 'apps', 'chromium', 'window-manager', 'input'] as const) {
      expect(check(id).status, `${id}: ${check(id).figure}`).toBe('ok');
    }
    expect(check('apps').figure).toMatch(/[1-9]\d* with a tree/);
    expect(check('provider-reachable').status).toBe('ok');
    expect(check('provider-key')).toMatchObject({ status: 'fail', fixKey: 'provider-key', fix: expect.stringContaining('DESKPILOT_API_KEY') });
    expect(check('provider-model').status).toBe('skip');
    expect(result.code).toBe(1);
  });

  it('prints one line a check, each with its mark', async () => {
    const result = await runCli(['doctor'], { ...desktop.env, ...provider(refusing.url) }, DEADLINE_MS);
    const lines = result.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(10);
    for (const line of lines) expect(line).toMatch(/^[✓✗–] \S/);
    // The session has no keyring, and the CLI needs none: "–" with the reason, not a failure.
    expect(lines.find((line) => line.includes(' keyring '))).toMatch(/^– keyring\s+not needed: the CLI takes its API key from DESKPILOT_API_KEY/);
  });

  it('exits 0 in a working session with the key in DESKPILOT_API_KEY, though it has no keyring', async () => {
    const accepting = await listen((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[{"message":{"role":"assistant","content":"OK"}}]}'),
    );
    try {
      const { run: result, report } = await doctor({ ...desktop.env, ...provider(accepting.url) });
      expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
      expect(result.code).toBe(0);
    } finally {
      accepting.server.close();
    }
  });

  it('says accessibility is off, with the setting that turns it on, and names a provider that is not listening', async () => {
    await setAccessibilityEnabled(desktop.env, false);
    try {
      const { check } = await doctor({ ...desktop.env, ...provider(closedUrl) }, '--online');
      expect(check('a11y-enabled')).toMatchObject({ status: 'fail', fixKey: 'a11y-disabled', fix: expect.stringContaining('toolkit-accessibility true') });
      expect(check('provider-reachable')).toMatchObject({ status: 'fail', fixKey: 'provider-unreachable', figure: expect.stringContaining('refused') });
    } finally {
      await setAccessibilityEnabled(desktop.env, true);
    }
  });

  it('names the missing window manager', async () => {
    const { check } = await doctor(bare.env);
    expect(check('display').status).toBe('ok');
    expect(check('window-manager')).toMatchObject({ status: 'fail', fixKey: 'no-wm', fix: expect.stringContaining('window manager') });
  });

  it('names a frozen registry, in seconds', async () => {
    const registry = await registryOf(desktop);
    process.kill(registry, 'SIGSTOP');
    try {
      const { run: result, check } = await doctor(desktop.env);
      expect(check('registry')).toMatchObject({ status: 'fail', fixKey: 'registry-gone', fix: expect.stringContaining('at-spi2-registryd') });
      expect(check('apps').status).toBe('skip');
      // doctor() has checked the run ended by itself before DEADLINE_MS: each part's own deadline cut the frozen call.
      expect(result.lingered).toBe(false);
    } finally {
      process.kill(registry, 'SIGCONT');
    }
  });

  it('names the missing X server as the cause when the registry died with it', async () => {
    const xServer = Number(readFileSync(`/tmp/.X${bare.display.slice(1)}-lock`, 'utf8').trim());
    const registry = await registryOf(bare);
    process.kill(xServer, 'SIGKILL');
    process.kill(registry, 'SIGKILL');
    const { check, run: result } = await doctor(bare.env);
    expect(check('display')).toMatchObject({ status: 'fail', fixKey: 'no-display', fix: expect.stringContaining('DISPLAY') });
    expect(check('registry')).toMatchObject({ status: 'fail', fixKey: 'no-display' });
    expect(check('window-manager').status).toBe('skip');
    expect(result.code).toBe(1);
  });
});
