/**
 * Another app's window lying over the target app, on a real X server: a capture of the target
 * shows none of the other window's pixels, and synthetic input aimed at the target where the
 * other window lies is not sent. The dialog is moved over the fixture's corner, with and without a
 * window manager (which frames windows and keeps its own list of them).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bounds } from '../../src/shared/ui-node';
import { intersect } from '../../src/core/platform/window-image';
import { walk } from '../../src/core/ui/tree-index';
import { hasHeadlessTools } from './session';
import { startDesktop, type Desktop, type LaunchedApp } from './desktop';
import { waitFor } from './wait-for';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run).each([
  { manager: 'no window manager', openbox: false },
  { manager: 'openbox (frames, a managed list)', openbox: true },
])('a window of another app over the target, $manager', ({ openbox }) => {
  let desktop: Desktop;
  let fixture: LaunchedApp;
  let dialog: LaunchedApp;
  let overlap: Bounds;

  beforeAll(async () => {
    desktop = await startDesktop({ openbox });
    fixture = await desktop.launchFixture();
    dialog = await desktop.launch('/usr/bin/zenity', ['--info', '--text', 'Move to Trash', '--title', 'Intruder']);
    const windowOf = async (pid: number): Promise<Bounds> => {
      const { root } = await desktop.engine.observe(pid, { bounds: 'all', fresh: true });
      const window = [...walk(root)].find((node) => node.role === 'window' || node.role === 'dialog');
      if (window?.bounds === undefined) throw new Error(`no window bounds for pid ${pid}`);
      return window.bounds;
    };
    // Dialogs centre themselves: move the dialog onto the fixture's corner, as a hostile app would.
    const target = await windowOf(fixture.pid);
    const env = { ...process.env, DISPLAY: desktop.session.display };
    const { stdout } = await promisify(execFile)('xdotool', ['search', '--onlyvisible', '--pid', String(dialog.pid)], { env });
    for (const id of stdout.trim().split('\n')) {
      await promisify(execFile)('xdotool', ['windowmove', '--sync', id, String(target.x + 10), String(target.y + 10)], { env });
    }
    await waitFor(
      async () => {
        const area = intersect(target, await windowOf(dialog.pid));
        return area.width * area.height > 1000 ? area : undefined;
      },
      10_000,
      'the dialog to move over the fixture',
    ).then((area) => (overlap = area));
  }, 60_000);

  afterAll(async () => desktop?.stop());

  it('the windows overlap (the premise of the test)', () => {
    expect(overlap.width * overlap.height).toBeGreaterThan(1000);
  });

  it("paints the other app's window black in the target's capture", async () => {
    const image = await (desktop.platform.screen as NonNullable<typeof desktop.platform.screen>).captureWindow(fixture.pid);
    let lit = 0;
    let checked = 0;
    for (let y = overlap.y; y < overlap.y + overlap.height; y += 2) {
      for (let x = overlap.x; x < overlap.x + overlap.width; x += 2) {
        const at = ((y - image.y) * image.width + (x - image.x)) * 4;
        if (at < 0 || at >= image.data.length) continue;
        checked += 1;
        if (image.data[at] !== 0 || image.data[at + 1] !== 0 || image.data[at + 2] !== 0) lit += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(lit).toBe(0);
  }, 30_000);

  it('says which process owns the point, and sends no input meant for the target there', async () => {
    const middle = { x: overlap.x + overlap.width / 2, y: overlap.y + overlap.height / 2 };
    expect(await desktop.platform.apps.windowAt?.(middle)).toEqual({ pid: dialog.pid });
    // A fixture node under the dialog, acted on through synthetic input (scroll has no native path).
    const { root } = await desktop.engine.observe(fixture.pid, { bounds: 'all', fresh: true });
    const inside = (x: number, y: number): boolean => x > overlap.x && y > overlap.y && x < overlap.x + overlap.width && y < overlap.y + overlap.height;
    const covered = [...walk(root)]
      .filter((node) => node.role !== 'window' && node.bounds !== undefined && node.bounds.width > 0 && node.bounds.height > 0)
      .filter((node) => {
        const box = node.bounds as Bounds;
        return inside(box.x + box.width / 2, box.y + box.height / 2);
      })
      .sort((a, b) => (a.bounds as Bounds).width * (a.bounds as Bounds).height - (b.bounds as Bounds).width * (b.bounds as Bounds).height)[0];
    expect(covered, 'a fixture node whose middle is under the dialog').toBeDefined();
    const result = await desktop.engine.run(fixture.pid, { action: 'scroll', id: covered?.id });
    expect(result).toMatchObject({ success: false, error: { code: 'ACTION_FAILED', message: expect.stringMatching(/covered by another window/) } });
  }, 30_000);
});
