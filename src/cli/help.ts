import { actTable } from './help-act';
import { DESKTOP_ENV, ENV_HELP, OPTION_HELP, PROVIDER_ENV } from './help-options';

/**
 * One command as `--help`, `<command> --help` and docs/cli.md describe it; the parser checks
 * options against it too. A new command is one more entry here (and its section in docs/cli.md,
 * which help.test.ts holds to this).
 */
export interface CommandHelp {
  name: string;
  /** What follows the options on the command line. */
  operand?: string;
  options: readonly string[];
  summary: string;
  /** Exit codes besides 2 (bad input or an error), which every command shares. */
  exits: Readonly<Record<number, string>>;
  /** Environment variables the command reads. */
  env: readonly string[];
  /** More to say in the command's own help, a line each. */
  details?: readonly string[];
  /** A table the command's help prints after its options. */
  table?: () => string[];
}

const TARGET = ['--pid', '--app'];
const TARGET_DETAIL = 'Without --pid or --app, the target is the frontmost app.';

export const COMMAND_HELP: readonly CommandHelp[] = [
  { name: 'apps', options: ['--json'], summary: 'running apps with their pids and windows', exits: { 0: 'listed' }, env: DESKTOP_ENV },
  {
    name: 'tree',
    options: [...TARGET, '--json', '--budget', '--max-nodes', '--root', '--bounds'],
    summary: "the app's accessibility tree, compact text or JSON",
    exits: { 0: 'printed' },
    env: DESKTOP_ENV,
    details: [TARGET_DETAIL, 'Each line is [id] role "name" = value (states); a cut subtree ends with "… truncated: N more under <id>".'],
  },
  {
    name: 'find',
    options: [...TARGET, '--role', '--name', '--text', '--limit', '--json'],
    summary: 'nodes by role and name or text, best match first (--role button also finds toggle buttons)',
    exits: { 0: 'found', 1: 'no matches' },
    env: DESKTOP_ENV,
    details: [TARGET_DETAIL],
  },
  {
    name: 'read',
    operand: 'ID',
    options: [...TARGET, '--max-chars', '--offset', '--json'],
    summary: 'the full text of one node and everything under it',
    exits: { 0: 'printed' },
    env: DESKTOP_ENV,
    details: [TARGET_DETAIL],
  },
  {
    name: 'screenshot',
    options: [...TARGET, '--ocr', '--out', '--json'],
    summary: "the app's window as a PNG (password fields black), to --out or screenshot-PID.png; --ocr also prints the text read off it, with ids to act on",
    exits: { 0: 'saved' },
    env: [...DESKTOP_ENV, 'INIT_CWD'],
    details: [TARGET_DETAIL, 'Linux (X11) only for now.'],
  },
  {
    name: 'act',
    operand: "'<ui_action JSON>'",
    options: [...TARGET, '--json', '--keep-devices'],
    summary: 'run one action and verify it: a one-line summary, or the full result with --json',
    exits: {
      0: 'the action ran and a change was seen',
      1: 'the action failed (one line on stderr)',
      3: 'it ran, but nothing observable changed (a soft failure)',
    },
    env: DESKTOP_ENV,
    details: [
      TARGET_DETAIL,
      'Every action takes settleMs (0–10000, default 80): how long to wait before verifying.',
      'Actions and their fields (the ids are the fixture desktop’s, DESKPILOT_PLATFORM=fake; take real ones from tree or find):',
    ],
    table: actTable,
  },
  {
    name: 'ask',
    operand: '"question"',
    options: [...TARGET, '--preset', '--lang', '--mcp-config', '--yes', '--keep-devices', '--save-workflow'],
    summary: 'ask the model about the app and let it act; the answer streams to stdout, tool calls go to stderr',
    exits: { 0: 'answered', 1: 'stopped at the step limit', 130: 'interrupted (Ctrl-C)' },
    env: [...DESKTOP_ENV, ...PROVIDER_ENV, 'DESKPILOT_VISION', 'LC_ALL', 'INIT_CWD'],
    details: [
      TARGET_DETAIL,
      'A key variable alone picks its service (OPENAI_API_KEY: OpenAI); with nothing configured, a local Ollama or LM Studio server is used if one answers.',
      'Risky actions are asked on the terminal (y once, a for this app, n no); without a terminal they are denied.',
    ],
  },
  {
    name: 'workflow',
    operand: 'run FILE | record',
    options: [...TARGET, '--var', '--dry-run', '--yes', '--keep-devices', '--json', '--recover', '--save-healed', '--out'],
    summary: 'replay a recorded workflow without a model (halts rather than guesses), or record one (--out FILE) until Ctrl-C',
    exits: { 0: 'every step ran and was verified', 3: 'halted (the report names the step)', 130: 'interrupted (Ctrl-C)' },
    env: [...DESKTOP_ENV, ...PROVIDER_ENV, 'DESKPILOT_WORKFLOWS_DIR', 'INIT_CWD'],
    details: [
      TARGET_DETAIL,
      'run FILE: each step finds its element by identity, waits for it, acts and checks the effect it had when recorded; a missing, ambiguous or unverified step halts the run.',
      'record --out FILE: records clicks and typing in the app until Ctrl-C or the app exits; password fields become secret parameters.',
    ],
  },
  {
    name: 'docs',
    operand: 'index | search QUERY',
    options: ['--folder', '--app', '--top', '--json'],
    summary: "index or search documentation: an app's help and man pages (--app NAME) and your folders (--folder DIR, repeatable); works without a desktop",
    exits: { 0: 'indexed, or found', 1: 'no matches' },
    env: ['DESKPILOT_DOCS_FOLDERS', 'DESKPILOT_DATA_DIR', 'DESKPILOT_EMBEDDING_MODEL', ...PROVIDER_ENV],
    details: [
      'index: bring the index up to date (only new and changed files are read again) and say what was read.',
      'search QUERY: index what is needed first, then print the best sections with their file and a snippet.',
    ],
  },
  {
    name: 'mcp',
    options: ['--max-chars', '--read-only', '--apps', '--keep-devices'],
    summary: 'a stdio MCP server for Claude Desktop, Cursor and other MCP clients; logs go to stderr',
    exits: { 0: 'the client closed the connection' },
    env: DESKTOP_ENV,
  },
  {
    name: 'doctor',
    options: ['--online', '--json'],
    summary:
      'check the display, the accessibility bus and registry, the apps, input, the keyring, the provider (with --online, one tiny request) and the docs index: one line each, ✓ or ✗ (– when not needed), with the fix',
    exits: { 0: 'every check passed', 1: 'a check failed' },
    env: [...DESKTOP_ENV, ...PROVIDER_ENV, 'DESKPILOT_DATA_DIR'],
  },
];

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly string[] = ['--debug'];

const COLUMN = 41;

function option(name: string): string {
  const value = OPTION_HELP[name]?.value;
  return value === undefined ? name : `${name} ${value}`;
}

/** `tree [--pid N | --app NAME] [--json] …`: the target pair is one choice, as docs/cli.md writes it. */
export function usageLine(command: CommandHelp): string {
  const target = TARGET.every((name) => command.options.includes(name)) ? [`[${TARGET.map(option).join(' | ')}]`] : [];
  const rest = command.options.filter((name) => target.length === 0 || !TARGET.includes(name)).map((name) => `[${option(name)}]`);
  return [command.name, ...target, ...rest, ...(command.operand === undefined ? [] : [command.operand])].join(' ');
}

export function exitLine(command: CommandHelp): string {
  const codes = Object.entries({ ...command.exits, 2: 'error' }).map(([code, meaning]) => `${code} ${meaning}`);
  return `exit ${codes.join(', ')}`;
}

export function usage(version: string): string {
  const lines = [
    `deskpilot ${version}`,
    'Usage: deskpilot <command> [options]      deskpilot <command> --help for one command',
    '',
    'Commands (all headless: they need an accessibility session, not the app window):',
  ];
  for (const command of COMMAND_HELP) {
    lines.push(`  ${usageLine(command)}`, `${' '.repeat(COLUMN)}${command.summary}`, `${' '.repeat(COLUMN)}${exitLine(command)}`);
  }
  lines.push(
    '',
    'Without --pid or --app, the frontmost app is the target.',
    'Options: --debug prints stack traces; --version; --help. DESKPILOT_PLATFORM=fake uses an in-memory fixture desktop.',
    'Reference: docs/cli.md.',
  );
  return lines.join('\n');
}

/** One command's own help: synopsis, what it does, its options, any table, the variables it reads, its exit codes. */
export function commandUsage(name: string): string | undefined {
  const command = COMMAND_HELP.find((each) => each.name === name);
  if (command === undefined) return undefined;
  const width = Math.max(...[...command.options, ...GLOBAL_OPTIONS].map((each) => option(each).length)) + 2;
  const envWidth = Math.max(...command.env.map((each) => each.length)) + 2;
  return [
    `Usage: deskpilot ${usageLine(command)}`,
    '',
    `${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'Options:',
    ...[...command.options, ...GLOBAL_OPTIONS].map((each) => `  ${option(each).padEnd(width)}${OPTION_HELP[each]?.text ?? ''}`),
    ...(command.details === undefined ? [] : ['', ...command.details]),
    ...(command.table === undefined ? [] : command.table()),
    '',
    'Environment:',
    ...command.env.map((each) => `  ${each.padEnd(envWidth)}${ENV_HELP[each] ?? ''}`),
    '',
    `Exit: ${exitLine(command).slice('exit '.length)}.`,
    `Reference: docs/cli.md#${command.name}.`,
  ].join('\n');
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
