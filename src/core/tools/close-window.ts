import { z } from 'zod';
import type { UiActionResult } from '../../shared/ui-action';
import { systemClock } from '../clock';
import type { PlatformName } from '../platform/types';
import { findNodes } from '../ui/query';
import { summarizeAction } from './action';
import { resolveApp, targetFields } from './target';
import { defineTool, type ToolContext } from './types';

/** How long a window gets to go away after the close. */
const CLOSE_WAIT_MS = 2_000;
const CLOSE_POLL_MS = 100;

/** The close-window shortcut on each platform: cmd+w on macOS, ctrl+w elsewhere. */
export function closeShortcut(platform: PlatformName): { key: string; modifiers: string[] } {
  return { key: 'w', modifiers: [platform === 'darwin' ? 'cmd' : 'ctrl'] };
}

async function windowCount(context: ToolContext, pid: number): Promise<number> {
  const app = (await context.platform.apps.list()).find((each) => each.pid === pid);
  return app === undefined ? 0 : app.windows.length;
}

export const closeWindowTool = defineTool({
  name: 'ui_close_window',
  title: 'Close a window',
  description:
    "Closes the target app's window: clicks its Close button if it has one, else presses cmd+w (macOS) or ctrl+w. Checks that the window count dropped.",
  schema: z.strictObject({ ...targetFields }),
  effects: 'act',
  reports: 'windows',
  safety: { target: 'app', risk: () => ({ code: 'closesWindow' }), plan: () => ({ verb: 'close' }) },
  async handler(args, context) {
    const { pid } = await resolveApp(context, args);
    const clock = context.clock ?? systemClock;
    const before = await windowCount(context, pid);
    const { root } = await context.engine.observe(pid, { signal: context.signal, fresh: true });
    // A Close button the app shows is the app's own way out; the shortcut is the fallback.
    const button = findNodes(root, { role: 'button', name: 'Close' }).find((match) => match.score >= 0.95);
    const request = button === undefined ? { action: 'key', ...closeShortcut(context.platform.name) } : { action: 'click', id: button.node.id };
    const how =
      button === undefined
        ? `pressed ${closeShortcut(context.platform.name).modifiers[0]}+w`
        : `clicked [${button.node.id}] ${JSON.stringify(button.node.name)}`;
    const result: UiActionResult = await context.engine.run(pid, request, context.signal);
    if (!result.success) return { success: false, message: summarizeAction({ action: button === undefined ? 'key' : 'click' }, result), data: result };
    let after = await windowCount(context, pid);
    for (let waited = 0; after >= before && waited < CLOSE_WAIT_MS; waited += CLOSE_POLL_MS) {
      await clock.sleep(CLOSE_POLL_MS, context.signal);
      after = await windowCount(context, pid);
    }
    if (after < before)
      return { success: true, message: `${how}; windows: ${before} → ${after}`, data: { before, after, method: button === undefined ? 'key' : 'button' } };
    return {
      success: false,
      message: `${how}, but the window count is still ${after}; the app may be asking to save or confirm: call ui_tree to see`,
      data: { before, after, method: button === undefined ? 'key' : 'button' },
    };
  },
});
