/** The worker's shared desktop: what one file leaves behind does not reach the next. */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Desktop } from './desktop';
import { hasHeadlessTools } from './session';
import { leaseDesktop } from './shared-desktop';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
const execFileAsync = promisify(execFile);

const commandOf = (pid: number): string => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

/** The root window's property names, and the window _NET_ACTIVE_WINDOW names (none when absent or None). */
async function rootProperties(desktop: Desktop): Promise<{ names: string[]; activeWindow: string | undefined }> {
  const { stdout } = await execFileAsync('xprop', ['-root'], { env: desktop.session.env, maxBuffer: 4 << 20 });
  const names = stdout.split('\n').flatMap((line) => /^([A-Za-z_][A-Za-z0-9_]*)[(:]/.exec(line)?.[1] ?? []);
  const active = /^_NET_ACTIVE_WINDOW\(WINDOW\): window id # (0x[0-9a-f]+)/im.exec(stdout)?.[1];
  return { names: names.filter((name) => name !== '_NET_ACTIVE_WINDOW').sort(), activeWindow: active === '0x0' ? undefined : active };
}

describe.skipIf(!run)('the shared desktop', () => {
  it('ends the apps a file left, removes its files and env vars, and lends the same display again', async () => {
    const first = await leaseDesktop({ openbox: true });
    const display = first.session.display;
    const core = first.session.processIds();
    const before = await rootProperties(first);
    const app = await first.launchFixture();
    // The app's window is active: the window manager says so on the root window.
    await expect.poll(async () => (await rootProperties(first)).activeWindow).toMatch(/^0x/);
    const leftover = path.join(first.session.directory, 'home', 'left-behind');
    writeFileSync(leftover, 'x');
    process.env['DESKPILOT_LEFT_BEHIND'] = '1';
    await first.stop();
    expect(app.child.exitCode !== null || app.child.signalCode !== null).toBe(true);
    expect(existsSync(leftover)).toBe(false);
    expect(process.env['DESKPILOT_LEFT_BEHIND']).toBeUndefined();

    const second = await leaseDesktop({ openbox: true });
    try {
      expect(second.session.display).toBe(display);
      expect(await second.platform.apps.list()).toEqual([]);
      // Nothing is left but a new openbox, which remembers no focus and no window of the first file.
      expect(
        second.session
          .processIds()
          .filter((pid) => !core.includes(pid))
          .map(commandOf),
      ).toEqual(['openbox']);
      expect((await rootProperties(second)).activeWindow).toBeUndefined();
      expect((await rootProperties(second)).names).toEqual(before.names);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('is lent to one file at a time, and only as the kind the worker holds', async () => {
    const desktop = await leaseDesktop({ openbox: true });
    try {
      await expect(leaseDesktop({ openbox: true })).rejects.toThrow(/still lent/);
    } finally {
      await desktop.stop();
    }
    await expect(leaseDesktop({ openbox: true, width: 800, height: 600 })).rejects.toThrow(/own-worker project/);
  }, 60_000);
});
