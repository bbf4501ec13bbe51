import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import type { AppEntry } from './apps';
import { bridgeOf } from './bridges';
import { createRelaunch, type RelaunchDeps } from './relaunch';

const node = (role: RawNode['role'], children: RawNode[] = []): RawNode => ({
  ref: null,
  role,
  platformRole: role,
  name: role,
  states: { enabled: true, focused: false },
  actions: [],
  ...(children.length > 0 ? { children } : {}),
});

const SHELL = node('application', [node('window')]);
const FULL = node('application', [node('window', [node('document')])]);

/** A /proc with one Electron app (pid 77) whose title Chromium rewrote, its environment and its folder. */
function fakeProc(): string {
  const proc = mkdtempSync(path.join(tmpdir(), 'relaunch-'));
  mkdirSync(path.join(proc, '77'));
  writeFileSync(path.join(proc, '77', 'cmdline'), '/opt/notes/notes --no-first-run\0');
  writeFileSync(path.join(proc, '77', 'environ'), 'HOME=/home/ada\0DISPLAY=:7\0');
  return proc;
}

/** An app that exits after `closesToQuit` close requests (never, with Infinity); records every step. */
function deps(options: { toolkit?: string; tree?: RawNode; closesToQuit?: number; windows?: boolean } = {}) {
  const steps: string[] = [];
  let alive = true;
  let closes = 0;
  const app: AppEntry = { pid: 77, name: 'Notes', windows: [], bus: ':1.7', gtk4: false, bridge: bridgeOf(options.toolkit ?? 'Chromium', '1.0') };
  const given: RelaunchDeps = {
    app: (pid) => (pid === 77 ? Promise.resolve(app) : Promise.reject(new Error('no such app'))),
    tree: () => {
      steps.push('tree');
      return Promise.resolve(options.tree ?? SHELL);
    },
    closeWindow: () => {
      closes += 1;
      steps.push(`close ${closes}`);
      if (closes >= (options.closesToQuit ?? 1)) alive = false;
      return Promise.resolve(options.windows ?? true);
    },
    isAlive: () => alive,
    sleep: () => Promise.resolve(),
    start: (args, env, cwd) => {
      steps.push(`start ${args.join(' ')} (DISPLAY=${env['DISPLAY'] ?? ''}, cwd ${cwd === '' ? 'none' : 'set'})`);
      return 4242;
    },
    proc: fakeProc(),
  };
  return { given, steps };
}

describe('relaunch with accessibility', () => {
  it('offers the relaunch only for a Chromium app that shows a bare window, with its own command', async () => {
    expect(await createRelaunch(deps().given).relaunchOffer(77)).toEqual({
      app: 'Notes',
      command: '/opt/notes/notes --force-renderer-accessibility --no-first-run',
    });
    expect(await createRelaunch(deps({ tree: FULL }).given).relaunchOffer(77)).toBeUndefined();
    const gtk = deps({ toolkit: 'GTK' });
    expect(await createRelaunch(gtk.given).relaunchOffer(77)).toBeUndefined();
    // Other toolkits are answered from the bridge alone: no tree is read for them.
    expect(gtk.steps).toEqual([]);
    expect(await createRelaunch(deps().given).relaunchOffer(5)).toBeUndefined();
  });

  it('asks the app to quit, waits until it has exited, then starts it with the flag in its own environment', async () => {
    const { given, steps } = deps({ closesToQuit: 2 });
    await expect(createRelaunch(given).relaunchAccessible(77)).resolves.toBe(4242);
    expect(steps).toEqual(['tree', 'close 1', 'close 2', 'start /opt/notes/notes --force-renderer-accessibility --no-first-run (DISPLAY=:7, cwd set)']);
  });

  it('starts nothing when the app does not quit (a question about unsaved work), and says so', async () => {
    const { given, steps } = deps({ closesToQuit: Infinity });
    await expect(createRelaunch(given).relaunchAccessible(77)).rejects.toMatchObject({ code: 'ACTION_FAILED', data: { reason: 'still_running' } });
    expect(steps.filter((step) => step.startsWith('close'))).toHaveLength(8);
    expect(steps.some((step) => step.startsWith('start'))).toBe(false);
    const windowless = deps({ closesToQuit: Infinity, windows: false });
    await expect(createRelaunch(windowless.given).relaunchAccessible(77)).rejects.toMatchObject({ code: 'ACTION_FAILED' });
    expect(windowless.steps.filter((step) => step.startsWith('close'))).toHaveLength(1);
  });

  it('refuses an app that is not such an app, and stops when asked', async () => {
    await expect(createRelaunch(deps({ tree: FULL }).given).relaunchAccessible(77)).rejects.toMatchObject({ code: 'VALIDATION' });
    const { given, steps } = deps();
    await expect(createRelaunch(given).relaunchAccessible(77, AbortSignal.abort())).rejects.toMatchObject({ code: 'STOPPED' });
    expect(steps).toEqual(['tree']);
  });
});
