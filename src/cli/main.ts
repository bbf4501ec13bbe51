import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ValidationError, isDeskpilotError, oneLine } from '../shared/errors';
import { ActionEngine } from '../core/actions/engine';
import { createRuntime, type Runtime } from '../core/runtime/runtime';
import { COMMANDS } from './commands';
import { askBeforeInputFor } from './keep-devices';
import type { CliIo, CommandContext } from './context';
import { checkLengths } from './bounds';
import { terminalSafe } from './terminal-io';
import { checkOptions, commandUsage, strayOperand, usage } from './help';
import { parseMcpOptions } from '../mcp/options';

export const OPTIONS = {
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
  lang: { type: 'string' },
  'mcp-config': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  'keep-devices': { type: 'boolean' },
  var: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  'save-workflow': { type: 'string' },
  recover: { type: 'boolean' },
  'save-healed': { type: 'string' },
  'max-chars': { type: 'string' },
  offset: { type: 'string' },
  ocr: { type: 'boolean' },
  out: { type: 'string' },
  'read-only': { type: 'boolean' },
  apps: { type: 'string' },
  folder: { type: 'string', multiple: true },
  top: { type: 'string' },
  online: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** The package's version, for --version and the help's first line. */
export function version(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

type Parsed = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;

/**
 * Parses leniently, then judges every option itself, so a mistake gets one line that names
 * the command's own options instead of Node's parser text.
 */
function parse(argv: string[]): Parsed {
  const { values, positionals, tokens } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const command = positionals[0];
  const given: string[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const known = OPTIONS[token.name as keyof typeof OPTIONS] as { type: string } | undefined;
    if (known === undefined) {
      throw new ValidationError(checkOptions(command ?? '', [token.rawName]) ?? `unknown option '${token.rawName}'. Run 'deskpilot --help' for the options.`);
    }
    if (known.type === 'string' && token.value === undefined) throw new ValidationError(`option '--${token.name}' needs a value`);
    if (known.type === 'boolean' && token.inlineValue === true) throw new ValidationError(`option '--${token.name}' takes no value`);
    given.push(`--${token.name}`);
  }
  const wrong =
    command === undefined || ['help', 'version'].includes(command)
      ? undefined
      : checkOptions(
          command,
          given.filter((option) => option !== '--help' && option !== '--version'),
        );
  if (wrong !== undefined) throw new ValidationError(wrong);
  return { values, positionals, tokens } as Parsed;
}

/** Runs one CLI command and returns the exit code: 0 ok, 1 action failed, 2 error. */
export async function main(argv: string[], terminal: CliIo): Promise<number> {
  // Every printed string passes one escape on its way out: apps, documents and models supply most of them.
  const io = terminalSafe(terminal);
  const debug = argv.includes('--debug');
  let runtime: Runtime | undefined;
  try {
    const { values, positionals } = parse(argv);
    const [name, ...rest] = positionals;
    if (values.version === true || name === 'version') {
      io.stdout(version());
      return 0;
    }
    // `deskpilot act --help` and `deskpilot help act`: that command's own help.
    const about = name === 'help' ? rest[0] : values.help === true ? name : undefined;
    const own = about === undefined ? undefined : commandUsage(about);
    if (own !== undefined) {
      io.stdout(own);
      return 0;
    }
    if (name === undefined || name === 'help' || values.help === true) {
      io.stdout(usage(version()));
      return name === undefined && values.help !== true ? 2 : 0;
    }
    const stray = strayOperand(name, rest);
    if (stray !== undefined) throw new ValidationError(stray);
    checkLengths(values, rest);
    // The MCP server makes its platform on the first tool call, so it starts (and says why) even without a desktop.
    if (name === 'mcp') {
      const options = parseMcpOptions(values);
      // The MCP SDK is loaded only for this command.
      const { runStdioServer } = await import('../mcp/stdio');
      return await runStdioServer(options, { stderr: io.stderr, env: io.env, ...(io.platform === undefined ? {} : { platform: io.platform }) });
    }
    // Documentation search needs no desktop either.
    if (name === 'docs') {
      const { docsCommand } = await import('./docs');
      return await docsCommand(values, rest, io);
    }
    // The doctor checks the desktop part by part, each with its own deadline, instead of failing on the first missing one.
    if (name === 'doctor') {
      const { doctorCommand } = await import('./doctor');
      return await doctorCommand(values, io);
    }
    const command = COMMANDS[name];
    if (command === undefined)
      throw new ValidationError(`unknown command '${name}'. Commands: ${[...Object.keys(COMMANDS), 'docs', 'doctor', 'mcp'].join(', ')}.`);
    runtime = await createRuntime({
      env: io.env,
      ...(io.platform === undefined ? {} : { platform: io.platform }),
      notify: (text) => io.stderr(`deskpilot docs: ${text}`),
      engine: (platform) => new ActionEngine({ platform, ...(io.clock === undefined ? {} : { clock: io.clock }), ...askBeforeInputFor(values) }),
    });
    const context: CommandContext = { runtime, platform: runtime.platform, engine: runtime.engine, values, positionals: rest, io };
    return await command(context);
  } catch (error) {
    io.stderr(describe(error, debug));
    return 2;
  } finally {
    await runtime?.close();
  }
}

function describe(error: unknown, debug: boolean): string {
  const stack = debug && error instanceof Error && error.stack !== undefined ? `\n${error.stack}` : '';
  // One line, whatever the message holds: scripts and people read errors line by line; --debug adds the stack below it.
  if (isDeskpilotError(error)) return `deskpilot: ${error.code}: ${oneLine(error.message)}${stack}`;
  const message = oneLine(error instanceof Error ? error.message : String(error));
  return `deskpilot: internal error: ${message}${stack || ' (run with --debug for details)'}`;
}
