import { ProcessExitedError, ValidationError } from '../shared/errors';
import type { AppInfo, UiNode } from '../shared/ui-node';
import type { BoundsMode } from '../core/platform/types';
import { runAction } from '../core/actions/run-action';
import { withTerminalAsker } from './keep-devices';
import { CLI_WORDS, summarizeAction } from '../core/tools/advice';
import { actExitCode } from './exit-codes';
import { readTool } from '../core/tools/read';
import { nodeById, resolveApp } from '../core/tools/target';
import type { ToolContext } from '../core/tools/types';
import { findNodes, type Match } from '../core/ui/query';
import { DEFAULT_SERIALIZE, formatNode, serializeTree } from '../core/ui/serialize';
import { observeForText } from '../core/tools/tree-read';
import { quickFind, type QuickFindQuery } from '../core/tools/quick-find';
import { cutNote, trustedMatches } from '../core/ui/read-cut';
import { writeJson } from './json-stream';
import { terminalLine } from '../shared/terminal-text';
import type { CommandContext } from './context';

type Command = (context: CommandContext) => Promise<number>;

function integer(values: CommandContext['values'], name: string, least = 1): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const number = Number(raw);
  if (!Number.isInteger(number) || number < least) {
    throw new ValidationError(`--${name} needs a ${least === 0 ? 'whole number, 0 or more' : 'positive whole number'}, got '${String(raw)}'`);
  }
  return number;
}

/** The pid a command acts on when it names no app: the frontmost app, as the user sees it. */
async function frontmostPid({ platform, values }: CommandContext): Promise<number | undefined> {
  if (values['pid'] !== undefined || values['app'] !== undefined) return undefined;
  const frontmost = await platform.apps.frontmost();
  if (frontmost === undefined) throw new ValidationError('no frontmost app; pass --pid or --app');
  return frontmost.pid;
}

/** The target app from --pid and --app, else the frontmost app, resolved as every program resolves apps. */
export async function targetApp(context: CommandContext): Promise<AppInfo> {
  const app = context.values['app'];
  return resolveApp(
    { platform: context.platform, targetPid: await frontmostPid(context) },
    { pid: integer(context.values, 'pid'), app: typeof app === 'string' ? app : undefined },
  );
}

/** A tool context for running a tool definition from the command line, so the CLI says what the MCP server says. */
async function toolContext(context: CommandContext): Promise<ToolContext> {
  return {
    engine: context.engine,
    platform: context.platform,
    targetPid: (await targetApp(context)).pid,
    signal: new AbortController().signal,
    log: (text) => context.io.stderr(text),
  };
}

const apps: Command = async ({ platform, values, io }) => {
  const list = await platform.apps.list();
  if (values['json']) {
    io.stdout(JSON.stringify(list, null, 2));
    return 0;
  }
  const rows = list.map((app) => {
    const windows = app.windows.map((window) => `${JSON.stringify(window.title)}${window.focused ? ' (focused)' : ''}`).join(', ');
    return `${String(app.pid).padEnd(8)}${terminalLine(app.name).padEnd(28)}${terminalLine(windows)}`;
  });
  io.stdout([`${'PID'.padEnd(8)}${'NAME'.padEnd(28)}WINDOWS`, ...rows].join('\n'));
  return 0;
};

const BOUNDS_MODES: readonly BoundsMode[] = ['none', 'interactive', 'all'];

/** The whole read (up to the platform's cap); a cut one says so on stderr and in the root's `cut`. */
async function wholeSubject(context: Parameters<Command>[0], pid: number, bounds: BoundsMode | undefined, rootId: string | undefined): Promise<UiNode> {
  const { root } = await context.engine.observe(pid, bounds === undefined ? {} : { bounds });
  if (root.cut !== undefined) context.io.stderr(`deskpilot: ${cutNote(root.cut)}`);
  return rootId === undefined ? root : nodeById(root, rootId, pid);
}

/** What the text form prints: read only as far as its budget where the platform reads on demand. */
async function textSubject(context: Parameters<Command>[0], pid: number, rootId: string | undefined, maxTokens?: number, maxNodes?: number): Promise<UiNode> {
  const { subject, cut } = await observeForText(context.engine, pid, {
    rootId,
    maxTokens: maxTokens ?? DEFAULT_SERIALIZE.maxTokens,
    maxNodes: maxNodes ?? DEFAULT_SERIALIZE.maxNodes,
  });
  if (cut !== undefined) context.io.stderr(`deskpilot: ${cutNote(cut)}`);
  return subject;
}

const tree: Command = async (context) => {
  const { values, io } = context;
  const bounds = values['bounds'];
  if (bounds !== undefined && !BOUNDS_MODES.includes(bounds as BoundsMode)) {
    throw new ValidationError(`--bounds takes ${BOUNDS_MODES.join(', ')}, got '${String(bounds)}'`);
  }
  const app = await targetApp(context);
  const rootId = typeof values['root'] === 'string' ? values['root'] : undefined;
  const maxTokens = integer(values, 'budget');
  const maxNodes = integer(values, 'max-nodes');
  const whole = values['json'] === true || (bounds !== undefined && bounds !== 'none');
  // The text form reads only what its budget prints, outline first; JSON and bounds read the whole tree.
  const subject = whole
    ? await wholeSubject(context, app.pid, bounds as BoundsMode | undefined, rootId)
    : await textSubject(context, app.pid, rootId, maxTokens, maxNodes);
  if (values['json']) {
    // Streamed: a 20,000-node tree never becomes one string beside itself.
    if (io.write === undefined) io.stdout(JSON.stringify(subject, null, 2));
    else writeJson(subject, io.write);
    return 0;
  }
  const text = serializeTree(subject, {
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(maxNodes === undefined ? {} : { maxNodes }),
    bounds: bounds !== undefined && bounds !== 'none',
  });
  io.stdout(`# ${terminalLine(app.name)} (pid ${app.pid})\n${text}`);
  return 0;
};

const find: Command = async (context) => {
  const { values, io } = context;
  const role = values['role'];
  const name = values['name'];
  const text = values['text'];
  if (typeof role !== 'string' && typeof name !== 'string' && typeof text !== 'string') {
    throw new ValidationError('find needs --role, --name or --text');
  }
  const { pid, appName } = await findTarget(context);
  const limit = integer(values, 'limit') ?? 20;
  const query = {
    role: typeof role === 'string' ? role : undefined,
    name: typeof name === 'string' ? name : undefined,
    text: typeof text === 'string' ? text : undefined,
  };
  // Where the app answers a role and name search itself (Collection), no tree is read.
  const matches = (await quickFind(context.platform, pid, { ...query, limit })) ?? (await searchTree(context, pid, { ...query, limit }));
  if (values['json']) {
    io.stdout(
      JSON.stringify(
        matches.map((match) => ({ score: Number(match.score.toFixed(3)), node: { ...match.node, children: undefined } })),
        null,
        2,
      ),
    );
  } else if (matches.length === 0) {
    io.stdout(`no matches in ${terminalLine(await appName())} (pid ${pid}); try a looser name, only a role, or 'deskpilot tree'`);
  } else {
    io.stdout(matches.map((match) => `${match.score.toFixed(2)}  ${formatNode(match.node)}`).join('\n'));
  }
  return matches.length === 0 ? 1 : 0;
};

/**
 * find's target. Given --pid alone, no listing of every app first: that listing (every app's
 * windows, the X server's classes, the desktop files) took longer than a Collection find on a
 * 20,000-node page, and find needs the name only to say it found nothing.
 */
async function findTarget(context: CommandContext): Promise<{ pid: number; appName: () => Promise<string> }> {
  const pid = integer(context.values, 'pid');
  if (pid === undefined || context.values['app'] !== undefined) {
    const app = await targetApp(context);
    return { pid: app.pid, appName: () => Promise.resolve(app.name) };
  }
  if (!(await context.platform.apps.isAlive(pid))) throw new ProcessExitedError(pid);
  const appName = async (): Promise<string> => (await context.platform.apps.list()).find((app) => app.pid === pid)?.name ?? `pid ${pid}`;
  return { pid, appName };
}

/** find's search over a whole read: a cut read gives exact matches or a typed NODE_NOT_FOUND with the reason, never a near twin. */
async function searchTree(context: CommandContext, pid: number, query: QuickFindQuery): Promise<Match[]> {
  const { root } = await context.engine.observe(pid);
  const found = findNodes(root, {
    ...(query.role === undefined ? {} : { role: query.role }),
    ...(query.name === undefined ? {} : { name: query.name }),
    ...(query.text === undefined ? {} : { text: query.text }),
    limit: query.limit,
  });
  const matches = trustedMatches(root, found, query.name !== undefined || query.text !== undefined);
  if (root.cut !== undefined) context.io.stderr(`deskpilot: ${cutNote(root.cut)}`);
  return matches;
}

const act: Command = async (context) => {
  const [json, extra] = context.positionals;
  if (json === undefined || extra !== undefined) {
    throw new ValidationError(`act needs exactly one JSON argument, e.g. deskpilot act --pid 42 '{"action":"click","id":"kqxza"}'`);
  }
  let request: unknown;
  try {
    request = JSON.parse(json);
  } catch (error) {
    throw new ValidationError(`act needs valid JSON: ${(error as Error).message}`);
  }
  const app = await targetApp(context);
  // --keep-devices: input this action needs is put to the user on the terminal first.
  const result = await withTerminalAsker(context, () => runAction(context.engine, app.pid, request));
  const summary = summarizeAction(request as { action: string }, result, CLI_WORDS);
  if (context.values['json']) context.io.stdout(JSON.stringify(result, null, 2));
  else if (result.success) context.io.stdout(summary);
  if (!result.success) context.io.stderr(`deskpilot: ${summary}`);
  return actExitCode(request as { action: string }, result);
};

/** The full text of one node and everything under it, as the ui_read tool gives it. */
const read: Command = async (context) => {
  const [id, extra] = context.positionals;
  if (id === undefined || extra !== undefined) throw new ValidationError('read needs exactly one node id, e.g. deskpilot read --pid 42 kqxza');
  const maxChars = integer(context.values, 'max-chars');
  // Where a cut read said to read on from: the same offset ui_read takes.
  const offset = integer(context.values, 'offset', 0);
  const args = { id, ...(maxChars === undefined ? {} : { maxChars }), ...(offset === undefined ? {} : { offset }) };
  const result = await readTool.handler(args, await toolContext(context));
  context.io.stdout(context.values['json'] ? JSON.stringify(result.data, null, 2) : result.message);
  return 0;
};

// Loaded when asked for: the agent and the model provider are most of what the CLI would otherwise load.
const askCommand: Command = async (context) => (await import('./ask')).ask(context, async () => (await targetApp(context)).pid);
const screenshotCommand: Command = async (context) => (await import('./screenshot')).screenshot(context, await toolContext(context));

const workflowCommand: Command = async (context) => (await import('./workflow')).workflowCommand(context, async () => (await targetApp(context)).pid);

export const COMMANDS: Record<string, Command> = { apps, tree, find, read, screenshot: screenshotCommand, act, ask: askCommand, workflow: workflowCommand };
