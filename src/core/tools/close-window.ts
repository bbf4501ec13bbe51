import { z } from 'zod';
import type { UiActionResult } from '../../shared/ui-action';
import type { UiNode } from '../../shared/ui-node';
import { systemClock } from '../clock';
import type { PrimaryModifier } from '../platform/types';
import { findNodes } from '../ui/query';
import { summarizeAction } from './advice';
import { resolveApp, targetFields } from './target';
import { defineTool, type ToolContext } from './types';
import { argumentLine } from './gist';

/** How long a window gets to go away after the close. */
const CLOSE_WAIT_MS = 2_000;
const CLOSE_POLL_MS = 100;

/** The close-window shortcut: the platform's primary modifier with w (cmd+w on macOS, ctrl+w elsewhere). */
export function closeShortcut(primary: PrimaryModifier): { key: string; modifiers: string[] } {
  return { key: 'w', modifiers: [primary === 'meta' ? 'cmd' : 'ctrl'] };
}

async function windowCount(context: ToolContext, pid: number): Promise<number> {
  const app = (await context.platform.apps.list()).find((each) => each.pid === pid);
  return app === undefined ? 0 : app.windows.length;
}

type CloseMethod = 'button' | 'title-bar' | 'key';

/**
 * The app's own way out first (a Close button it shows), then the window manager's close (what
 * the title bar's close button does; works for apps that ignore ctrl+w, such as galculator),
 * then the close shortcut on platforms that cannot ask the window manager.
 */
async function requestClose(context: ToolContext, pid: number, root: UiNode): Promise<{ method: CloseMethod; how: string; failed?: UiActionResult }> {
  const button = findNodes(root, { role: 'button', name: 'Close' }).find((match) => match.score >= 0.95);
  if (button !== undefined) {
    const result = await context.engine.run(pid, { action: 'click', id: button.node.id }, context.signal);
    return { method: 'button', how: `clicked [${button.node.id}] ${JSON.stringify(button.node.name)}`, ...(result.success ? {} : { failed: result }) };
  }
  const { closeWindow } = context.platform.apps;
  if (closeWindow !== undefined && (await closeWindow(pid, context.signal)))
    return { method: 'title-bar', how: "asked the window to close, as its title bar's close button does" };
  const shortcut = closeShortcut(context.platform.primaryModifier);
  const result = await context.engine.run(pid, { action: 'key', ...shortcut }, context.signal);
  return { method: 'key', how: `pressed ${shortcut.modifiers[0]}+w`, ...(result.success ? {} : { failed: result }) };
}

export const closeWindowTool = defineTool({
  name: 'ui_close_window',
  title: 'Close a window',
  describe: (args) => ({ verb: 'close_window', unnamed: 'window', key: argumentLine(args) }),
  description:
    "Closes the target app's window: clicks its Close button if it has one, else asks the window manager to close it as the title bar's close button does (where the platform can), else presses cmd+w (macOS) or ctrl+w. Checks that the window is gone.",
  schema: z.strictObject({ ...targetFields }),
  effects: 'act',
  reports: 'windows',
  safety: { target: 'app', risk: () => ({ code: 'closesWindow' }), plan: () => ({ verb: 'close' }) },
  async handler(args, context) {
    const { pid } = await resolveApp(context, args);
    const clock = context.clock ?? systemClock;
    const before = await windowCount(context, pid);
    const { root } = await context.engine.observe(pid, { signal: context.signal, fresh: true });
    const { method, how, failed } = await requestClose(context, pid, root);
    if (failed !== undefined) return { success: false, message: summarizeAction({ action: method === 'button' ? 'click' : 'key' }, failed), data: failed };
    let after = await windowCount(context, pid);
    for (let waited = 0; after >= before && waited < CLOSE_WAIT_MS; waited += CLOSE_POLL_MS) {
      await clock.sleep(CLOSE_POLL_MS, context.signal);
      after = await windowCount(context, pid);
    }
    if (after < before) return { success: true, message: `${how}; windows: ${before} → ${after}`, data: { before, after, method } };
    return {
      success: false,
      message: `${how}, but the window count is still ${after}; the app may be asking to save or confirm: call ui_tree to see`,
      data: { before, after, method },
    };
  },
});
