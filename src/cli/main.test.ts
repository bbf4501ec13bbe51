import { readFileSync } from 'node:fs';
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
    // One line, as the MCP server says it; the whole result with --json.
    expect(out[1]).toMatch(/^click ran via accessibility; changed: states.checked: false → true\nnow: \[\w{5}\] checkbox "Enable feature" \(checked\)$/);
    expect(await cli('act', '--json', '--pid', '4242', JSON.stringify({ action: 'click', id }))).toBe(0);
    expect(JSON.parse(out[2] as string)).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { states: { checked: false } } });
  });

  it('finds in an app given by --pid without listing every app, and names the app only when nothing matched', async () => {
    let listed = 0;
    const list = platform.apps.list.bind(platform.apps);
    platform.apps.list = () => ((listed += 1), list());
    expect(await cli('find', '--pid', String(FIXTURE_PID), '--role', 'checkbox', '--name', 'enable')).toBe(0);
    expect(listed).toBe(0);
    expect(await cli('find', '--pid', String(FIXTURE_PID), '--name', 'no such thing anywhere')).toBe(1);
    expect(out[1]).toMatch(/^no matches in Deskpilot Fixture \(pid 4242\)/);
    expect(listed).toBe(1);
    expect(await cli('find', '--pid', '999999', '--role', 'button')).toBe(2);
    expect(err.at(-1)).toMatch(/^deskpilot: PROCESS_EXITED: /);
  });

  it('exits 1 when the action fails: one line on stderr, the result JSON with --json, and no method claimed', async () => {
    expect(await cli('act', '{"action":"click","id":"nope"}')).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([expect.stringMatching(/^deskpilot: click failed: NODE_NOT_FOUND: node not found: 'nope'/)]);
    expect(await cli('act', '--json', '{"action":"click","id":"nope"}')).toBe(1);
    expect(JSON.parse(out[0] as string)).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    expect(JSON.parse(out[0] as string)).not.toHaveProperty('method');
  });

  it('reads the full text of a node, as ui_read does', async () => {
    expect(await cli('find', '--role', 'list', '--name', 'Items')).toBe(0);
    const id = /\[(\w+)\]/.exec(out[0] as string)?.[1] as string;
    expect(await cli('read', id)).toBe(0);
    expect(out[1]).toMatch(/^Items\nItem 1\nItem 2\n/);
    expect(out[1]).toContain('Item 200');
    expect(await cli('read', '--max-chars', '100', id)).toBe(0);
    expect(out[2]).toMatch(/… truncated: \d+ more characters; read on with offset \d+$/);
    expect(await cli('read', '--json', id)).toBe(0);
    expect(JSON.parse(out[3] as string)).toMatchObject({ id, role: 'list', name: 'Items', truncated: false });
    // The cut names where to read on from, and --offset reads on from there: the pages join up.
    const next = Number(/read on with offset (\d+)$/.exec(out[2] as string)?.[1]);
    expect(await cli('read', '--max-chars', '100', '--offset', String(next), id)).toBe(0);
    expect((out[2] as string).slice(0, 100) + (out[4] as string).slice(0, 100)).toBe((out[1] as string).slice(0, 200));
    expect(await cli('read', '--offset', '-1', id)).toBe(2);
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
      'deskpilot: PROCESS_EXITED: process not running (pid 99999)',
      "deskpilot: VALIDATION: --budget needs a positive whole number, got 'lots'",
      "deskpilot: VALIDATION: unknown command 'frobnicate'. Commands: apps, tree, find, read, screenshot, act, ask, workflow, docs, doctor, mcp.",
      "deskpilot: VALIDATION: unknown option '--colour' for 'tree'. Options: --pid, --app, --json, --budget, --max-nodes, --root, --bounds, --debug.",
    ]);
    expect(err.join('\n')).not.toMatch(/\n\s+at /);
  });

  it('prints its version, and names the valid options when one is mistyped or lacks its value', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await cli('--version')).toBe(0);
    expect(out).toEqual([version]);
    expect(await cli('find', '--jsn')).toBe(2);
    expect(await cli('apps', '--pid', '1')).toBe(2);
    expect(await cli('tree', '--pid')).toBe(2);
    expect(await cli('apps', '--json=yes')).toBe(2);
    expect(err).toEqual([
      "deskpilot: VALIDATION: unknown option '--jsn' for 'find'. Options: --pid, --app, --role, --name, --text, --limit, --json, --debug.",
      "deskpilot: VALIDATION: unknown option '--pid' for 'apps'. Options: --json, --debug.",
      "deskpilot: VALIDATION: option '--pid' needs a value",
      "deskpilot: VALIDATION: option '--json' takes no value",
    ]);
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
