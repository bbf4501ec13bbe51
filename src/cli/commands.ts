import { ValidationError } from '../shared/errors';
import type { AppInfo } from '../shared/ui-node';
import type { BoundsMode } from '../core/platform/types';
import { findTargetApp, subtreeOf } from '../core/targets';
import { findNodes } from '../core/ui/query';
import { formatNode, serializeTree } from '../core/ui/serialize';
import { ask } from './ask';
import type { CommandContext } from './context';

type Command = (context: CommandContext) => Promise<number>;

function integer(values: CommandContext['values'], name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const number = Number(raw);
  if (!Number.isInteger(number) || number <= 0) throw new ValidationError(`--${name} needs a positive whole number, got '${String(raw)}'`);
  return number;
}

/** The target app from --pid and --app. */
export async function targetApp({ platform, values }: CommandContext): Promise<AppInfo> {
  const pid = integer(values, 'pid');
  const app = values['app'];
  return findTargetApp(platform, { ...(pid === undefined ? {} : { pid }), ...(typeof app === 'string' ? { app } : {}) });
}

const apps: Command = async ({ platform, values, io }) => {
  const list = await platform.apps.list();
  if (values['json']) {
    io.stdout(JSON.stringify(list, null, 2));
    return 0;
  }
  const rows = list.map((app) => {
    const windows = app.windows.map((window) => `${JSON.stringify(window.title)}${window.focused ? ' (focused)' : ''}`).join(', ');
    return `${String(app.pid).padEnd(8)}${app.name.padEnd(28)}${windows}`;
  });
  io.stdout([`${'PID'.padEnd(8)}${'NAME'.padEnd(28)}WINDOWS`, ...rows].join('\n'));
  return 0;
};

const BOUNDS_MODES: readonly BoundsMode[] = ['none', 'interactive', 'all'];

const tree: Command = async (context) => {
  const { engine, values, io } = context;
  const bounds = values['bounds'];
  if (bounds !== undefined && !BOUNDS_MODES.includes(bounds as BoundsMode)) {
    throw new ValidationError(`--bounds takes ${BOUNDS_MODES.join(', ')}, got '${String(bounds)}'`);
  }
  const app = await targetApp(context);
  const { root } = await engine.observe(app.pid, bounds === undefined ? {} : { bounds: bounds as BoundsMode });
  const subject = subtreeOf(root, typeof values['root'] === 'string' ? values['root'] : undefined, app.pid);
  if (values['json']) {
    io.stdout(JSON.stringify(subject, null, 2));
    return 0;
  }
  const maxTokens = integer(values, 'budget');
  const maxNodes = integer(values, 'max-nodes');
  const text = serializeTree(subject, { ...(maxTokens === undefined ? {} : { maxTokens }), ...(maxNodes === undefined ? {} : { maxNodes }) });
  io.stdout(`# ${app.name} (pid ${app.pid})\n${text}`);
  return 0;
};

const find: Command = async (context) => {
  const { engine, values, io } = context;
  const role = values['role'];
  const name = values['name'];
  const text = values['text'];
  if (typeof role !== 'string' && typeof name !== 'string' && typeof text !== 'string') {
    throw new ValidationError('find needs --role, --name or --text');
  }
  const app = await targetApp(context);
  const { root } = await engine.observe(app.pid);
  const matches = findNodes(root, {
    ...(typeof role === 'string' ? { role } : {}),
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof text === 'string' ? { text } : {}),
    limit: integer(values, 'limit') ?? 20,
  });
  if (values['json']) {
    io.stdout(
      JSON.stringify(
        matches.map((match) => ({ score: Number(match.score.toFixed(3)), node: { ...match.node, children: undefined } })),
        null,
        2,
      ),
    );
  } else if (matches.length === 0) {
    io.stdout('no matches');
  } else {
    io.stdout(matches.map((match) => `${match.score.toFixed(2)}  ${formatNode(match.node)}`).join('\n'));
  }
  return matches.length === 0 ? 1 : 0;
};

const act: Command = async (context) => {
  const [json, extra] = context.positionals;
  if (json === undefined || extra !== undefined) {
    throw new ValidationError(`act needs exactly one JSON argument, e.g. deskpilot act --pid 42 '{"action":"click","id":"k3x9a"}'`);
  }
  let request: unknown;
  try {
    request = JSON.parse(json);
  } catch (error) {
    throw new ValidationError(`act needs valid JSON: ${(error as Error).message}`);
  }
  const app = await targetApp(context);
  const result = await context.engine.run(app.pid, request);
  context.io.stdout(JSON.stringify(result, null, 2));
  return result.success ? 0 : 1;
};

const askCommand: Command = (context) => ask(context, async () => (await targetApp(context)).pid);

export const COMMANDS: Record<string, Command> = { apps, tree, find, act, ask: askCommand };
