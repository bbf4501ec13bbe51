import { z } from 'zod';
import type { AppInfo } from '../../shared/ui-node';
import { fitJson, fitText } from '../budget';
import { parseArgs } from '../schemas';
import { defineMcpTool } from '../tool';

const input = z.strictObject({});

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

type Output = z.output<typeof output>;

function describeApp(app: AppInfo): string {
  const windows = app.windows.map((window) => `${JSON.stringify(window.title)}${window.focused ? ' (focused)' : ''}`).join(', ');
  return `pid ${app.pid} ${JSON.stringify(app.name)}${app.frontmost ? ' (frontmost)' : ''}; windows: ${windows === '' ? 'none' : windows}`;
}

export const appsTool = defineMcpTool({
  name: 'ui_apps',
  title: 'Running apps',
  description:
    'Step 1 of observe → act → verify: lists the running apps with their pids and window titles. Pass a pid (or the app name) to ui_tree, ui_find, ui_read and ui_action.',
  input,
  output,
  readOnly: true,
  parse: (args) => parseArgs('ui_apps', input, args),
  async run(_args, context) {
    const { platform } = await context.core();
    const apps = context.allowList.filter(await platform.apps.list());
    const allowList = context.options.apps === undefined ? {} : { allowList: [...context.options.apps] };
    const structured: Output = {
      apps: apps.map((app) => ({
        pid: app.pid,
        name: app.name,
        ...(app.frontmost === undefined ? {} : { frontmost: app.frontmost }),
        windows: app.windows.map((window) => ({ title: window.title, ...(window.focused === undefined ? {} : { focused: window.focused }) })),
      })),
      ...allowList,
    };
    const head = context.options.apps === undefined ? '' : `Only apps allowed by this server are listed (${context.options.apps.join(', ')}).\n`;
    const lines = apps.length === 0 ? 'no apps with accessible windows are running' : apps.map(describeApp).join('\n');
    const text = fitText(`${head}${lines}`, context.options.maxChars, 'Call ui_tree with the app name of the app you need.').value;
    return { text, structured: fitJson(structured, context.options.maxChars).value };
  },
});
