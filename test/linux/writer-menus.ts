/**
 * Menus beside a working user, on LibreOffice Writer: a menu item is run by its own action
 * with its menu closed (no popup, no keyboard grab, the user's window stays active), and a
 * click that opens a menu says it interrupted, since the open popup holds the keyboard. The
 * grab is seen the way the X server sees it: our own GrabKeyboard answers AlreadyGrabbed.
 *
 * The tests run on the Writer that toolkits.test.ts has launched, after its own checks of Writer
 * and before its names test: a LibreOffice start costs seconds of a 2-core machine, and a file of
 * their own launched Writer a second time. The user's window is started and made active here, and
 * quit after, so no other app runs beside the names test.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { X11Connection } from '../../src/core/platform/linux/x11/connection';
import { words } from '../../src/core/platform/linux/x11/session';
import { walk } from '../../src/core/ui/tree-index';
import type { Desktop, LaunchedApp } from './desktop';
import { waitFor } from './wait-for';

const execFileAsync = promisify(execFile);
const GRAB_KEYBOARD = 31;
const UNGRAB_KEYBOARD = 32;
const ASYNC = 1;

/** Whether some client holds the keyboard: a grab of our own is refused then (and released at once when it is not). */
async function keyboardHeld(env: Record<string, string | undefined>): Promise<boolean> {
  const x = await X11Connection.open(env, 2000);
  try {
    const reply = await x.request(GRAB_KEYBOARD, 1, Buffer.concat([words(x.root, 0), Buffer.from([ASYNC, ASYNC, 0, 0])]), 'GrabKeyboard');
    if (reply.readUInt8(1) !== 0) return true;
    await x.sendChecked(UNGRAB_KEYBOARD, 0, words(0), 'UngrabKeyboard');
    return false;
  } finally {
    x.close();
  }
}

/** Registers the menu tests (skipped with `skip`), on the desktop and Writer pid each getter gives once they run. */
export function writerMenuTests(skip: boolean, desktopOf: () => Desktop, writerPid: () => Promise<number>): void {
  describe.skipIf(skip)('menus beside the user (Writer)', () => {
    let desktop: Desktop;
    let pid: number;
    let user: LaunchedApp | undefined;
    let other: string;

    const xdotool = async (...args: string[]): Promise<string> =>
      (await execFileAsync('xdotool', args, { env: desktop.session.env, timeout: 10_000 })).stdout.trim();

    beforeAll(async () => {
      desktop = desktopOf();
      pid = await writerPid();
      user = await desktop.launch('yad', ['--title=Users app', '--text=busy']);
      other = (await xdotool('search', '--name', '^Users app$')).split('\n')[0] as string;
      await xdotool('windowactivate', '--sync', other);
    }, 150_000);

    afterAll(async () => {
      if (user !== undefined) await desktop.quit(user);
    });

    const find = async (test: (node: UiNode) => boolean, what: string): Promise<UiNode> =>
      waitFor(async () => [...walk((await desktop.engine.observe(pid, { fresh: true })).root)].find(test), 30_000, what);
    it('runs a menu item by its action with the menu closed: no grab, the user’s window stays active', async () => {
      const align = await find((node) => node.role === 'menu' && node.name === 'Align Text', 'Format > Align Text');
      const centered = (align.children ?? []).find((node) => node.role === 'menuitem' && node.name === 'Centered') as UiNode;
      expect(centered).toBeDefined();
      const result = await desktop.engine.run(pid, { id: centered.id, action: 'click' });
      expect({ success: result.success, method: result.method, via: result.via, interrupted: result.interrupted }).toEqual({
        success: true,
        method: 'accessibility',
        via: 'action',
        interrupted: undefined,
      });
      expect(await keyboardHeld(desktop.session.env)).toBe(false);
      expect(await xdotool('getactivewindow')).toBe(other);
    }, 60_000);

    it('says a click that opened a menu interrupted: its popup holds the keyboard until it closes', async () => {
      const format = await find((node) => node.role === 'menu' && node.name === 'Format', 'the Format menu');
      const result = await desktop.engine.run(pid, { id: format.id, action: 'click' });
      expect(result).toMatchObject({ success: true, method: 'accessibility', via: 'action', interrupted: true });
      await waitFor(async () => ((await keyboardHeld(desktop.session.env)) ? true : undefined), 10_000, 'the open menu to grab the keyboard');
      // The menu takes Escape from the keyboard it holds, and lets go of it.
      await xdotool('key', 'Escape');
      await waitFor(async () => ((await keyboardHeld(desktop.session.env)) ? undefined : true), 10_000, 'the menu to let go of the keyboard');
    }, 60_000);
  });
}
