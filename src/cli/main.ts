import { parseArgs } from 'node:util';
import { ValidationError, isDeskpilotError } from '../shared/errors';
import { ActionEngine } from '../core/actions/engine';
import { createPlatform } from '../core/platform/factory';
import type { Platform } from '../core/platform/types';
import { COMMANDS } from './commands';
import type { CliIo, CommandContext } from './context';
import { MCP_USAGE, parseMcpOptions } from '../mcp/options';
import { runStdioServer } from '../mcp/stdio';

export const USAGE = `Usage: deskpilot <command> [options]

Commands (all headless: they need an accessibility session, not the app window):
  apps                                   running apps with their pids and windows
  tree [--pid N | --app NAME] [--json] [--budget TOKENS] [--max-nodes N] [--root ID] [--bounds none|interactive|all]
                                         the app's accessibility tree, compact or as JSON
  find [--pid N | --app NAME] [--role R] [--name TEXT] [--text TEXT] [--limit N] [--json]
                                         nodes by role and name or text, best match first
  act  [--pid N | --app NAME] '<ui_action JSON>'
                                         run one action, print the result JSON; exit 1 if it failed
  ask  [--pid N | --app NAME] [--preset P] [--yes] "question"
                                         ask the model about the app and let it act; the answer streams to
                                         stdout, tool calls go to stderr; exit 0 answered, 1 step limit, 130 Ctrl-C
                                         Risky actions (quit/close/delete keys, Delete/Send/Pay… buttons, acting
                                         after reading a document) ask on the terminal: y once, a this app, n no;
                                         --yes allows all without asking (needed when stdin is not a terminal)
                                         Provider: --preset or DESKPILOT_PROVIDER (openrouter, openai, ollama,
                                         lmstudio, gemini; default openrouter), DESKPILOT_API_KEY, DESKPILOT_MODEL,
                                         DESKPILOT_BASE_URL, DESKPILOT_HEADERS ('Name: value; Name2: value')
${MCP_USAGE}
Without --pid or --app, the frontmost app is the target.
Options: --debug prints stack traces. DESKPILOT_PLATFORM=fake uses an in-memory fixture desktop.`;

const OPTIONS = {
  pid: { type: 'string' },
  app: { type: 'string' },
  json: { type: 'boolean' },
  budget: { type: 'string' },
  'max-nodes': { type: 'string' },
  root: { type: 'string' },
  bounds: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  text: { type: 'string' },
  limit: { type: 'string' },
  preset: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'max-chars': { type: 'string' },
  'read-only': { type: 'boolean' },
  apps: { type: 'string' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parse(argv: string[]): ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>> {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ValidationError(`${(error as Error).message}. Run 'deskpilot help' for usage.`);
  }
}

/** Runs one CLI command and returns the exit code: 0 ok, 1 action failed, 2 error. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const debug = argv.includes('--debug');
  let platform: Platform | undefined = io.platform;
  try {
    const { values, positionals } = parse(argv);
    const [name, ...rest] = positionals;
    if (name === undefined || name === 'help' || values.help) {
      io.stdout(USAGE);
      return name === undefined && !values.help ? 2 : 0;
    }
    // The MCP server makes its platform on the first tool call, so it starts (and says why) even without a desktop.
    if (name === 'mcp')
      return await runStdioServer(parseMcpOptions(values), { stderr: io.stderr, env: io.env, ...(io.platform === undefined ? {} : { platform: io.platform }) });
    const command = COMMANDS[name];
    if (command === undefined) throw new ValidationError(`unknown command '${name}'. Commands: ${[...Object.keys(COMMANDS), 'mcp'].join(', ')}.`);
    platform ??= await createPlatform(process.platform, io.env);
    const context: CommandContext = { platform, engine: new ActionEngine({ platform }), values, positionals: rest, io };
    return await command(context);
  } catch (error) {
    io.stderr(describe(error, debug));
    return 2;
  } finally {
    if (io.platform === undefined) await platform?.close();
  }
}

function describe(error: unknown, debug: boolean): string {
  const stack = debug && error instanceof Error && error.stack !== undefined ? `\n${error.stack}` : '';
  if (isDeskpilotError(error)) return `deskpilot: ${error.code}: ${error.message}${stack}`;
  const message = error instanceof Error ? error.message : String(error);
  return `deskpilot: internal error: ${message}${stack || ' (run with --debug for details)'}`;
}
