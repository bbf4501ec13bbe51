/** `--keep-devices` on the command line: input steps are put to the user on the terminal's confirm prompt. */
import { beforeEach, describe, expect, it } from 'vitest';
import { FakePlatform } from '../core/platform/fake/fake-platform';
import { main } from './main';

let platform: FakePlatform;
let out: string[];
let err: string[];

function cli(answer: string | undefined, tty: boolean, ...argv: string[]): Promise<number> {
  return main(argv, {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: {},
    platform,
    stdinIsTTY: tty,
    readLine: () => Promise.resolve(answer),
  });
}

async function nameField(): Promise<string> {
  expect(await cli(undefined, false, 'find', '--role', 'textfield', '--name', 'Name', '--limit', '1')).toBe(0);
  return /\[(\w+)\]/.exec(out.at(-1) ?? '')?.[1] ?? 'missing';
}

beforeEach(() => {
  platform = new FakePlatform();
  out = [];
  err = [];
});

describe('deskpilot act --keep-devices', () => {
  it('asks about the input step itself and runs it on yes', async () => {
    const id = await nameField();
    expect(await cli('y', true, 'act', '--keep-devices', JSON.stringify({ action: 'click', id }))).toBe(0);
    const prompt = err.join('\n');
    expect(prompt).toContain('"action":"click"');
    expect(prompt).toContain(id);
    expect(prompt).toMatch(/pointer or keyboard/);
    expect(platform.inputLog.some((entry) => entry.startsWith('click'))).toBe(true);
  });

  it('sends nothing on no, or with no terminal to ask on', async () => {
    const id = await nameField();
    expect(await cli('n', true, 'act', '--keep-devices', JSON.stringify({ action: 'click', id }))).toBe(1);
    expect(err.join('\n')).toMatch(/PERMISSION_DENIED|said no/);
    expect(await cli(undefined, false, 'act', '--keep-devices', JSON.stringify({ action: 'click', id }))).toBe(1);
    expect(platform.inputLog).toEqual([]);
  });

  it('asks nothing without the flag, nor for a step with an accessible path', async () => {
    expect(await cli(undefined, false, 'find', '--name', 'Enable feature', '--limit', '1')).toBe(0);
    const check = /\[(\w+)\]/.exec(out.at(-1) ?? '')?.[1] ?? 'missing';
    expect(await cli(undefined, false, 'act', '--keep-devices', JSON.stringify({ action: 'click', id: check }))).toBe(0);
    const id = await nameField();
    expect(await cli(undefined, false, 'act', JSON.stringify({ action: 'click', id }))).toBe(0);
    expect(err).toEqual([]);
  });
});
