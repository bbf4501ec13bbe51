import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands';
import { COMMAND_HELP, GLOBAL_OPTIONS, commandUsage, usage, usageLine } from './help';
import { ACT_FIELDS } from './help-act';
import { ENV_HELP, OPTION_HELP } from './help-options';
import { main } from './main';
import { OPTIONS } from './main';

const docs = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

/** The docs' section for one command: from its `### name` heading to the next heading. */
function section(name: string): string {
  const start = docs.indexOf(`### ${name}\n`);
  if (start < 0) throw new Error(`docs/cli.md has no section for ${name}`);
  const end = docs.indexOf('\n#', start + 4);
  return docs.slice(start, end < 0 ? undefined : end);
}

/** Exit codes from a line such as `Exit: 0 found, 1 no matches, 2 error.` */
function codes(text: string): number[] {
  return [...text.matchAll(/(?:^|, )(\d+) /g)].map((match) => Number(match[1])).sort((a, b) => a - b);
}

describe('--help and docs/cli.md', () => {
  it('describe the same commands, and every command the CLI runs', () => {
    const documented = [...docs.matchAll(/^### (\w+)$/gm)].map((match) => match[1]);
    expect(documented).toEqual(COMMAND_HELP.map((command) => command.name));
    expect([...Object.keys(COMMANDS), 'docs', 'doctor', 'mcp'].sort()).toEqual(COMMAND_HELP.map((command) => command.name).sort());
  });

  it('give each command the same options, and the parser knows no others', () => {
    const described = new Set<string>(GLOBAL_OPTIONS);
    for (const command of COMMAND_HELP) {
      for (const option of command.options) {
        expect(section(command.name), `${command.name} ${option}`).toContain(option);
        described.add(option);
      }
    }
    const parsed = Object.keys(OPTIONS).map((name) => `--${name}`);
    expect(parsed.filter((option) => !described.has(option) && !['--help', '--version'].includes(option))).toEqual([]);
    for (const option of ['--debug', '--version', '--help']) expect(docs).toContain(option);
  });

  it('state the same exit codes for each command', () => {
    const help = usage('test').split('\n');
    for (const command of COMMAND_HELP) {
      const line = /^Exit: (.*)$/m.exec(section(command.name))?.[1];
      expect(line, command.name).toBeDefined();
      const expected = [...Object.keys(command.exits).map(Number), 2].sort((a, b) => a - b);
      expect(codes(line ?? ''), command.name).toEqual(expected);
      // In the usage text each command takes three lines: the command, what it does, its exit codes.
      const at = help.findIndex((text) => text.startsWith(`  ${command.name} `) || text === `  ${command.name}`);
      const helpLine = help[at + 2]?.trim() ?? '';
      expect(helpLine, command.name).toMatch(/^exit /);
      expect(codes(helpLine.slice('exit '.length)), command.name).toEqual(expected);
    }
  });

  it('give each command the same synopsis and the same environment variables', () => {
    for (const command of COMMAND_HELP) {
      expect(section(command.name), command.name).toContain(`\`deskpilot ${usageLine(command)}\``);
      const listed = /^Environment: (.*)\.$/m.exec(section(command.name))?.[1] ?? '';
      expect(
        [...listed.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1]),
        command.name,
      ).toEqual(command.env);
      for (const name of command.env) expect(ENV_HELP[name], name).toBeDefined();
      for (const option of command.options) expect(OPTION_HELP[option], option).toBeDefined();
    }
  });
});

describe('<command> --help', () => {
  it.each(COMMAND_HELP.map((command) => command.name))('prints the help of %s alone, not the global usage', async (name) => {
    const out: string[] = [];
    for (const argv of [
      [name, '--help'],
      ['help', name],
    ]) {
      expect(await main(argv, { stdout: (text) => out.push(text), stderr: () => undefined, env: {} })).toBe(0);
    }
    const [help, again] = out;
    expect(again).toBe(help);
    const command = COMMAND_HELP.find((each) => each.name === name);
    expect(help).toBe(commandUsage(name));
    expect(help?.split('\n')[0]).toBe(`Usage: deskpilot ${usageLine(command as (typeof COMMAND_HELP)[number])}`);
    for (const option of command?.options ?? []) expect(help).toContain(`  ${option}`);
    for (const variable of command?.env ?? []) expect(help).toContain(`  ${variable}`);
    expect(help).toMatch(/^Exit: 0 /m);
    expect(help).not.toContain('Commands (all headless');
  });

  it('gives act the fields of every action', () => {
    const help = commandUsage('act') ?? '';
    for (const row of ACT_FIELDS) {
      expect(help).toMatch(new RegExp(`^  ${row.action} +`, 'm'));
      for (const example of row.examples) expect(help).toContain(example);
    }
  });
});
