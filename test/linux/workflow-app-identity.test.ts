/**
 * The app identity a workflow records, as the Linux platform lists it on a real desktop: the
 * program from /proc, the desktop file that runs it, the toolkit from the AT-SPI Application
 * interface; and replay finding the app by it among other running apps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchWorkflowApp, workflowApp } from '../../src/core/workflows/app-identity';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('app identity on a real desktop', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
  }, 60_000);

  afterAll(async () => desktop?.stop());

  it('lists mousepad with its program, desktop id and GTK toolkit, and finds it again by them', async () => {
    const mousepad = await desktop.launch('/usr/bin/mousepad');
    const galculator = await desktop.launch('/usr/bin/galculator');
    const apps = await desktop.platform.apps.list();
    const listed = apps.find((app) => app.pid === mousepad.pid);
    expect(listed).toMatchObject({ processName: 'mousepad', desktopId: 'org.xfce.mousepad.desktop' });
    expect(listed?.toolkit).toMatch(/^gtk 3\./i);
    expect(apps.find((app) => app.pid === galculator.pid)).toMatchObject({ processName: 'galculator', desktopId: 'galculator.desktop' });

    const recorded = workflowApp(listed);
    // A name that fits neither: the desktop id alone finds it.
    expect(matchWorkflowApp(apps, { ...recorded, name: 'Renamed Editor' })?.pid).toBe(mousepad.pid);
    expect(matchWorkflowApp(apps, { processName: 'galculator' })?.pid).toBe(galculator.pid);
  }, 60_000);
});
