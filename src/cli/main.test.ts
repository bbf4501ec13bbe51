import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import { main } from './main';

let platform: FakePlatform;
let out: string[];
let err: string[];

async function cli(...argv: string[]): Promise<number> {
  return main(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text), env: {}, platform });
}

beforeEach(() => {
  platform = new FakePlatform();
  out = [];
  err = [];
});

describe('deskpilot CLI', () => {
  it('lists apps with pids', async () => {
    expect(await cli('apps')).toBe(0);
    expect(out[0]).toMatch(/^PID\s+NAME\s+WINDOWS\n4242\s+Deskpilot Fixture\s+"Deskpilot Fixture" \(focused\)\n4243\s+Notes/);
  });

  it('prints the compact tree of an app by name, within a budget', async () => {
    expect(await cli('tree', '--app', 'notes', '--max-nodes', '7')).toBe(0);
    expect(out[0]).toMatch(/^# Notes \(pid 4243\)\n\[\w+\] window "Notes"/);
    expect(out[0]).toContain('… truncated:');
    expect(out[0]).toContain('textfield "Password" (secret)');
  });

  it('prints the tree as JSON, without secret values', async () => {
    platform.app(FIXTURE_PID).get('password').value = 'hunter2';
    expect(await cli('tree', '--pid', String(FIXTURE_PID), '--json')).toBe(0);
    const tree = JSON.parse(out[0] as string);
    expect(tree.role).toBe('window');
    expect(out[0]).not.toContain('hunter2');
  });

  it('finds nodes and then acts on one, verifying the effect', async () => {
    expect(await cli('find', '--role', 'checkbox', '--name', 'enable')).toBe(0);
    const id = /\[(\w+)\]/.exec(out[0] as string)?.[1] as string;
    expect(await cli('act', '--pid', '4242', JSON.stringify({ action: 'click', id }))).toBe(0);
    expect(JSON.parse(out[1] as string)).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { states: { checked: true } } });
  });

  it('exits 1 with the result JSON when the action fails', async () => {
    expect(await cli('act', '{"action":"click","id":"nope"}')).toBe(1);
    expect(JSON.parse(out[0] as string)).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
  });

  it('prints one clear line and no stack for bad input', async () => {
    expect(await cli('act', '{"action":"type","id":"x"}')).toBe(2);
    expect(await cli('act', '{oops')).toBe(2);
    expect(await cli('tree', '--pid', '99999')).toBe(2);
    expect(await cli('tree', '--budget', 'lots')).toBe(2);
    expect(await cli('frobnicate')).toBe(2);
    expect(await cli('tree', '--colour')).toBe(2);
    expect(err).toEqual([
      "deskpilot: VALIDATION: invalid ui_action: 'type' needs 'text' (string)",
      expect.stringMatching(/^deskpilot: VALIDATION: act needs valid JSON: /),
      "deskpilot: VALIDATION: no running app has pid 99999; 'deskpilot apps' lists them",
      "deskpilot: VALIDATION: --budget needs a positive whole number, got 'lots'",
      "deskpilot: VALIDATION: unknown command 'frobnicate'. Commands: apps, tree, find, act, ask, mcp.",
      expect.stringMatching(/^deskpilot: VALIDATION: Unknown option '--colour'/),
    ]);
    expect(err.join('\n')).not.toMatch(/\n\s+at /);
  });

  it('shows stacks only with --debug', async () => {
    expect(await cli('act', '{oops', '--debug')).toBe(2);
    expect(err[0]).toMatch(/\n\s+at /);
  });
});

describe('deskpilot bin', () => {
  const bin = fileURLToPath(new URL('../../bin/deskpilot.js', import.meta.url));
  const run = promisify(execFile);

  it('runs under the fake platform from a plain process', async () => {
    const { stdout } = await run(process.execPath, [bin, 'apps'], { env: { ...process.env, DESKPILOT_PLATFORM: 'fake' } });
    expect(stdout).toContain('Deskpilot Fixture');
  });

  it('says clearly, without a crash, where no platform is available', async () => {
    const failure = await run(process.execPath, [bin, 'apps'], { env: { ...process.env, DESKPILOT_PLATFORM: 'win32' } }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 2, stdout: '' });
    expect((failure as { stderr: string }).stderr.trim()).toMatch(/^deskpilot: UI_NOT_AVAILABLE: UI automation is not available on Windows yet\./);
  });
});
