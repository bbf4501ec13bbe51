/**
 * ui_close_window on real apps: galculator ignores ctrl+w, so the window must be closed the way
 * its title bar does it: the window manager's _NET_CLOSE_WINDOW (openbox), or WM_DELETE_WINDOW
 * sent to the window when no window manager runs. Each is checked by the window being gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWindowTool } from '../../src/core/tools/close-window';
import type { ToolContext } from '../../src/core/tools/types';
import { startDesktop, type Desktop, type LaunchedApp } from './desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

function context(desktop: Desktop, pid: number): ToolContext {
  return { engine: desktop.engine, platform: desktop.platform, targetPid: pid, signal: new AbortController().signal, log: () => undefined };
}

/** Resolves when the app has exited: its only window closed, so it ended. */
function exited(app: LaunchedApp): Promise<unknown> {
  return app.child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => app.child.once('exit', resolve));
}

describe.skipIf(!run)('ui_close_window on Linux', () => {
  let managed: Desktop;
  let bare: Desktop;

  beforeAll(async () => {
    [managed, bare] = await Promise.all([startDesktop({ openbox: true }), startDesktop()]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([managed?.stop(), bare?.stop()]);
  });

  it('closes galculator through the window manager, which ctrl+w does not', async () => {
    const app = await managed.launch('galculator');
    const result = await closeWindowTool.handler({}, context(managed, app.pid));
    expect(result).toMatchObject({ success: true, data: { method: 'title-bar', before: 1, after: 0 } });
    await exited(app);
  });

  it('closes it with WM_DELETE_WINDOW when no window manager runs', async () => {
    const app = await bare.launch('galculator');
    const result = await closeWindowTool.handler({}, context(bare, app.pid));
    expect(result).toMatchObject({ success: true, data: { method: 'title-bar', before: 1, after: 0 } });
    await exited(app);
  });
});
