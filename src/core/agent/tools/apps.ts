import { z } from 'zod';
import type { AppInfo } from '../../../shared/ui-node';
import { textScore } from '../../ui/query';
import { OwnAppError, isOwnPid } from './target';
import { defineTool, type ToolContext } from './types';

/** Running apps without Deskpilot's own windows. */
async function otherApps(context: ToolContext): Promise<AppInfo[]> {
  return (await context.platform.apps.list()).filter((app) => !isOwnPid(context, app.pid));
}

function describeApp(app: AppInfo, targetPid: number | undefined): string {
  const marks = [app.frontmost ? 'frontmost' : '', app.pid === targetPid ? 'target' : ''].filter((mark) => mark !== '');
  const windows = app.windows.map((window) => JSON.stringify(window.title)).join(', ');
  return `pid ${app.pid} ${JSON.stringify(app.name)}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}; windows: ${windows === '' ? 'none' : windows}`;
}

export const listAppsTool = defineTool({
  name: 'list_apps',
  description: 'Lists running apps with their pids and window titles, marking the frontmost app and the current target.',
  schema: z.strictObject({}),
  async handler(_args, context) {
    const apps = await otherApps(context);
    return {
      success: true,
      message: apps.length === 0 ? 'no apps with windows are running' : apps.map((app) => describeApp(app, context.targetPid)).join('\n'),
      data: { apps },
    };
  },
});

const MIN_APP_SCORE = 0.7;

type RaiseOutcome = 'raised' | 'refused' | 'unsupported';

const RAISE_MESSAGES: Record<RaiseOutcome, string> = {
  raised: 'Its window is now in front, so keys go to it.',
  refused: 'Its window could not be brought to the front; key and type actions try again and refuse rather than send keys to another app.',
  unsupported: 'Its window was not raised: this platform cannot raise windows, so key and type actions work only while the user has it in front.',
};

/** A failing platform call is reported as not raised: retargeting already happened and stays. */
async function raiseWindow(context: ToolContext, pid: number): Promise<RaiseOutcome> {
  const { apps } = context.platform;
  if (apps.activate === undefined) return 'unsupported';
  const raised = await apps.activate(pid, context.signal).catch(() => false);
  return raised ? 'raised' : 'refused';
}

export const focusAppTool = defineTool({
  name: 'focus_app',
  description:
    'Makes another running app the target of the following tools and brings its window to the front, by pid or by name (fuzzy). Use list_apps to see them.',
  schema: z
    .strictObject({
      pid: z.number().int().positive().optional(),
      name: z.string().min(1).optional().describe('App or window name'),
    })
    .refine((args) => args.pid !== undefined || args.name !== undefined, { message: 'give pid or name' }),
  async handler(args, context) {
    if (args.pid !== undefined && isOwnPid(context, args.pid)) throw new OwnAppError(args.pid);
    const apps = await otherApps(context);
    let app: AppInfo | undefined;
    if (args.pid !== undefined) {
      app = apps.find((each) => each.pid === args.pid);
    } else {
      const wanted = args.name as string;
      const scored = apps
        .map((each) => ({ each, score: Math.max(textScore(wanted, each.name), ...each.windows.map((window) => textScore(wanted, window.title))) }))
        .filter(({ score }) => score >= MIN_APP_SCORE)
        .sort((a, b) => b.score - a.score);
      app = scored[0]?.each;
    }
    if (app === undefined) {
      const known = apps.map((each) => `${each.pid} ${JSON.stringify(each.name)}`).join(', ');
      return {
        success: false,
        message: `no running app ${args.pid === undefined ? `named ${JSON.stringify(String(args.name))}` : `with pid ${args.pid}`}; running: ${known || 'none'}`,
      };
    }
    context.targetPid = app.pid;
    // Tools address apps by pid, so retargeting is enough for reading; keys need the window in front.
    const raised = await raiseWindow(context, app.pid);
    context.signal.throwIfAborted();
    return {
      success: true,
      message: `target is now ${JSON.stringify(app.name)} (pid ${app.pid}); following tools act on it. ${RAISE_MESSAGES[raised]}`,
      data: { pid: app.pid, name: app.name, raised: raised === 'raised' },
    };
  },
});
