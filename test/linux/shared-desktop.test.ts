/** The worker's shared desktop: what one file leaves behind does not reach the next. */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasHeadlessTools } from './session';
import { leaseDesktop } from './shared-desktop';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('the shared desktop', () => {
  it('ends the apps a file left, removes its files and env vars, and lends the same display again', async () => {
    const first = await leaseDesktop({ openbox: true });
    const display = first.session.display;
    const core = first.session.processIds();
    const app = await first.launchFixture();
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
      expect(second.session.processIds().filter((pid) => !core.includes(pid))).toEqual([]);
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
