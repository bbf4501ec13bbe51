import { DEFAULT_MAX_CHARS } from '../mcp/options';

/** One command as `--help` and docs/cli.md describe it; the parser checks options against it too. */
export interface CommandHelp {
  name: string;
  /** What follows the options on the command line. */
  operand?: string;
  options: readonly string[];
  summary: string;
  /** Exit codes besides 2 (bad input or an error), which every command shares. */
  exits: Readonly<Record<number, string>>;
}

const TARGET = ['--pid', '--app'];

export const COMMAND_HELP: readonly CommandHelp[] = [
  { name: 'apps', options: ['--json'], summary: 'running apps with their pids and windows', exits: { 0: 'listed' } },
  {
    name: 'tree',
    options: [...TARGET, '--json', '--budget', '--max-nodes', '--root', '--bounds'],
    summary: "the app's accessibility tree, compact text or JSON",
    exits: { 0: 'printed' },
  },
  {
    name: 'find',
    options: [...TARGET, '--role', '--name', '--text', '--limit', '--json'],
    summary: 'nodes by role and name or text, best match first (--role button also finds toggle buttons)',
    exits: { 0: 'found', 1: 'no matches' },
  },
  {
    name: 'read',
    operand: 'ID',
    options: [...TARGET, '--max-chars', '--json'],
    summary: 'the full text of one node and everything under it',
    exits: { 0: 'printed' },
  },
  {
    name: 'screenshot',
    options: [...TARGET, '--ocr', '--out', '--json'],
    summary: "the app's window as a PNG (password fields black), to --out or screenshot-PID.png; --ocr also prints the text read off it, with ids to act on",
    exits: { 0: 'saved' },
  },
  {
    name: 'act',
    operand: "'<ui_action JSON>'",
    options: [...TARGET, '--json'],
    summary: 'run one action and verify it: a one-line summary, or the full result with --json',
    exits: { 0: 'the action ran and was verified', 1: 'the action failed (one line on stderr)' },
  },
  {
    name: 'ask',
    operand: '"question"',
    options: [...TARGET, '--preset', '--lang', '--mcp-config', '--yes', '--save-workflow'],
    summary: 'ask the model about the app and let it act; the answer streams to stdout, tool calls go to stderr',
    exits: { 0: 'answered', 1: 'stopped at the step limit', 130: 'interrupted (Ctrl-C)' },
  },
  {
    name: 'workflow',
    operand: 'run FILE | record',
    options: [...TARGET, '--var', '--dry-run', '--yes', '--json', '--recover', '--save-healed', '--out'],
    summary: 'replay a recorded workflow without a model (halts rather than guesses), or record one (--out FILE) until Ctrl-C',
    exits: { 0: 'every step ran and was verified', 3: 'halted (the report names the step)', 130: 'interrupted (Ctrl-C)' },
  },
  {
    name: 'docs',
    operand: 'index | search QUERY',
    options: ['--folder', '--app', '--top', '--json'],
    summary: "index or search documentation: an app's help and man pages (--app NAME) and your folders (--folder DIR, repeatable); works without a desktop",
    exits: { 0: 'indexed, or found', 1: 'no matches' },
  },
  {
    name: 'mcp',
    options: ['--max-chars', '--read-only', '--apps'],
    summary: `a stdio MCP server for Claude Desktop, Cursor and other MCP clients; logs go to stderr (--max-chars default ${DEFAULT_MAX_CHARS})`,
    exits: { 0: 'the client closed the connection' },
  },
  {
    name: 'doctor',
    options: ['--online', '--json'],
    summary:
      'check the display, the accessibility bus and registry, the apps, input, the keyring, the provider (with --online, one tiny request) and the docs index: one line each, ✓ or ✗, with the fix',
    exits: { 0: 'every check passed', 1: 'a check failed' },
  },
];

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly string[] = ['--debug'];

const COLUMN = 41;

/** What an option's value is, for the usage text; options without one are flags. */
const VALUES: Readonly<Record<string, string>> = {
  '--pid': 'N',
  '--app': 'NAME',
  '--budget': 'TOKENS',
  '--max-nodes': 'N',
  '--root': 'ID',
  '--bounds': 'none|interactive|all',
  '--role': 'ROLE',
  '--name': 'TEXT',
  '--text': 'TEXT',
  '--limit': 'N',
  '--max-chars': 'N',
  '--out': 'FILE',
  '--preset': 'NAME',
  '--lang': 'en|pt-BR',
  '--mcp-config': 'FILE',
  '--apps': 'NAME,NAME',
  '--folder': 'DIR',
  '--top': 'N',
  '--var': 'NAME=VALUE',
  '--save-workflow': 'FILE',
  '--save-healed': 'FILE',
};

function usageLine(command: CommandHelp): string {
  const options = command.options.map((option) => `[${option}${VALUES[option] === undefined ? '' : ` ${VALUES[option]}`}]`);
  return [command.name, ...options, ...(command.operand === undefined ? [] : [command.operand])].join(' ');
}

function exitLine(command: CommandHelp): string {
  const codes = Object.entries(command.exits).map(([code, meaning]) => `${code} ${meaning}`);
  return `exit ${[...codes, '2 error'].join(', ')}`;
}

export function usage(version: string): string {
  const lines = [
    `deskpilot ${version}`,
    'Usage: deskpilot <command> [options]',
    '',
    'Commands (all headless: they need an accessibility session, not the app window):',
  ];
  for (const command of COMMAND_HELP) {
    lines.push(`  ${usageLine(command)}`, `${' '.repeat(COLUMN)}${command.summary}`, `${' '.repeat(COLUMN)}${exitLine(command)}`);
  }
  lines.push(
    '',
    'Without --pid or --app, the frontmost app is the target.',
    "ask's provider: --preset or DESKPILOT_PROVIDER (openrouter, openai, ollama, lmstudio, gemini), DESKPILOT_API_KEY,",
    'DESKPILOT_MODEL, DESKPILOT_BASE_URL, DESKPILOT_HEADERS. A key variable alone picks its service (OPENAI_API_KEY: OpenAI);',
    'with nothing configured, a local Ollama or LM Studio server is used if one answers. --yes allows risky actions without asking.',
    "ask answers in the question's language (English or Brazilian Portuguese), else LC_ALL/LC_MESSAGES/LANG's; --lang fixes it.",
    '--mcp-config FILE gives ask the tools of the MCP servers in a Claude Desktop or Cursor config (its mcpServers).',
    'Options: --debug prints stack traces; --version; --help. DESKPILOT_PLATFORM=fake uses an in-memory fixture desktop.',
    'Reference: docs/cli.md.',
  );
  return lines.join('\n');
}

/** What is wrong with the operands a command was given, for commands that take none; undefined when they are fine. */
export function strayOperand(name: string, operands: readonly string[]): string | undefined {
  const command = COMMAND_HELP.find((each) => each.name === name);
  if (command === undefined || command.operand !== undefined || operands.length === 0) return undefined;
  return `'${name}' takes no arguments, got '${operands[0] ?? ''}'. Usage: deskpilot ${usageLine(command)}`;
}

/** Options the command does not take, with the message naming the ones it does. */
export function checkOptions(name: string, given: readonly string[]): string | undefined {
  const command = COMMAND_HELP.find((each) => each.name === name);
  if (command === undefined) return undefined;
  const allowed = [...command.options, ...GLOBAL_OPTIONS];
  const wrong = given.find((option) => !allowed.includes(option));
  return wrong === undefined ? undefined : `unknown option '${wrong}' for '${name}'. Options: ${allowed.join(', ')}.`;
}
