import { z } from 'zod';
import type { AppInfo } from '../../shared/ui-node';
import { fitJson, fitText } from './budget';
import { OwnAppError, isOwnPid, matchApp, visibleApps } from './target';
import { defineTool, type ToolContext } from './types';
import { MAX_NAME_CHARS } from './bounds';
import { argText, argumentLine } from './gist';

function describeApp(app: AppInfo, targetPid: number | undefined): string {
  const marks = [app.frontmost ? 'frontmost' : '', app.pid === targetPid ? 'target' : ''].filter((mark) => mark !== '');
  const windows = app.windows.map((window) => `${JSON.stringify(window.title)}${window.focused ? ' (focused)' : ''}`).join(', ');
  return `pid ${app.pid} ${JSON.stringify(app.name)}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}; windows: ${windows === '' ? 'none' : windows}`;
}

const output = z.object({
  apps: z.array(
    z.object({
      pid: z.number(),
      name: z.string(),
      frontmost: z.boolean().optional(),
      windows: z.array(z.object({ title: z.string(), focused: z.boolean().optional() })),
    }),
  ),
  /** Set when an allow-list hides the other apps. */
  allowList: z.array(z.string()).optional(),
});

export const appsTool = defineTool({
  name: 'ui_apps',
  title: 'Running apps',
  describe: (args) => ({ verb: 'list_apps', key: argumentLine(args) }),
  description:
    'Step 1 of observe → act → verify: lists the running apps with their pids and window titles, marking the frontmost app and the current target. Pass a pid (or the app name) to ui_tree, ui_find, ui_read and ui_action.',
  schema: z.strictObject({}),
  output,
  effects: 'read',
  async handler(_args, context) {
    const apps = await visibleApps(context);
    const allowed = context.allowList?.allowed;
    const data = {
      apps: apps.map((app) => ({
        pid: app.pid,
        name: app.name,
        ...(app.frontmost === undefined ? {} : { frontmost: app.frontmost }),
        windows: app.windows.map((window) => ({ title: window.title, ...(window.focused === undefined ? {} : { focused: window.focused }) })),
      })),
      ...(allowed === undefined ? {} : { allowList: allowed }),
    };
    const head = allowed === undefined ? '' : `Only apps allowed here are listed (${allowed.join(', ')}).\n`;
    const lines = apps.length === 0 ? 'no apps with accessible windows are running' : apps.map((app) => describeApp(app, context.targetPid)).join('\n');
    const maxChars = context.maxChars;
    if (maxChars === undefined) return { success: true, message: `${head}${lines}`, data };
    return {
      success: true,
      message: fitText(`${head}${lines}`, maxChars, 'Call ui_tree with the app name of the app you need.').value,
      data: fitJson(data, maxChars).value,
    };
  },
});

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
  name: 'ui_focus_app',
  title: 'Switch to another app',
  describe: (args) => {
    const name = argText(args['name']);
    return { verb: 'switch_app', ...(name === undefined ? {} : { target: name }), key: argumentLine(args) };
  },
  description:
    'Makes another running app the target of the following tools and brings its window to the front, by pid or by name (fuzzy). Use ui_apps to see them.',
  schema: z
    .strictObject({
      pid: z.number().int().positive().optional(),
      name: z.string().min(1).max(MAX_NAME_CHARS).optional().describe('App or window name'),
    })
    .refine((args) => args.pid !== undefined || args.name !== undefined, { message: 'give pid or name' }),
  effects: 'act',
  reports: 'target',
  scope: 'conversation',
  safety: {
    otherApp: (args) => ({ ...(args.pid === undefined ? {} : { pid: args.pid }), ...(args.name === undefined ? {} : { name: args.name }) }),
    plan: (args) => ({ verb: 'focus', ...(args.name === undefined ? {} : { target: args.name }) }),
  },
  async handler(args, context) {
    if (args.pid !== undefined && isOwnPid(context, args.pid)) throw new OwnAppError(args.pid);
    const apps = await visibleApps(context);
    const app = args.pid !== undefined ? apps.find((each) => each.pid === args.pid) : matchApp(apps, args.name as string);
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
