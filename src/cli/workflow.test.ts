import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import { main } from './main';

let platform: FakePlatform;
let out: string[];
let err: string[];
const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-workflow-cli-'));

async function cli(...argv: string[]): Promise<number> {
  return main(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text), env: {}, platform, stdinIsTTY: false });
}

function write(name: string, steps: unknown[], parameters: Record<string, unknown> = {}): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ format: 'deskpilot-workflow', version: 1, name, app: { name: 'Deskpilot Fixture' }, parameters, steps }));
  return file;
}

const nameStep = {
  action: 'set_value',
  intent: 'the name',
  target: { role: 'textfield', name: 'Name' },
  value: '{{name}}',
  expect: { value: '{{name}}' },
  timeoutMs: 0,
};

beforeEach(() => {
  platform = new FakePlatform();
  out = [];
  err = [];
});

describe('deskpilot workflow run', () => {
  it('replays with --var into the app the workflow names, exit 0', async () => {
    const file = write('fill.json', [nameStep], { name: { default: 'Ada' } });
    expect(await cli('workflow', 'run', file, '--var', 'name=Grace')).toBe(0);
    expect(platform.app(FIXTURE_PID).get('name').value).toBe('Grace');
    expect(out[0]).toMatch(/: completed\n\s+1\. ok\s+set_value textfield "Name" \[identity \w+\]/);
  });

  it('halts with exit 3 and a report naming the step; --json for programs', async () => {
    const file = write('gone.json', [{ ...nameStep, target: { role: 'textfield', name: 'Surname' } }, nameStep], { name: { default: 'Ada' } });
    expect(await cli('workflow', 'run', file, '--json')).toBe(3);
    const report = JSON.parse(out[0] as string);
    expect(report.halt).toMatchObject({ step: 1, code: 'not_found', lookedFor: 'textfield "Surname"' });
    expect(report.steps.map((step: { status: string }) => step.status)).toEqual(['halted', 'not_run']);
    expect(platform.app(FIXTURE_PID).get('name').value).toBe('');
  });

  it('prints a plan without acting on --dry-run', async () => {
    const file = write('plan.json', [nameStep], { name: { default: 'Ada' } });
    expect(await cli('workflow', 'run', file, '--dry-run', '--pid', String(FIXTURE_PID))).toBe(0);
    expect(out[0]).toContain('planned');
    expect(platform.app(FIXTURE_PID).get('name').value).toBe('');
  });

  it('denies a risky step without a terminal, and --yes trusts it', async () => {
    platform.app(FIXTURE_PID).get('button').name = 'Delete';
    const file = write('risky.json', [{ action: 'click', target: { role: 'button', name: 'Delete' }, expect: { changed: true } }]);
    expect(await cli('workflow', 'run', file)).toBe(3);
    expect(out[0]).toContain('HALTED at step 1 (click): denied');
    expect(await cli('workflow', 'run', file, '--yes')).toBe(0);
  });

  it.each([
    [['workflow', 'run'], /exactly one FILE/],
    [['workflow', 'fly'], /'run FILE' or 'record'/],
    [['workflow', 'run', '/nonexistent.json'], /cannot read workflow/],
    [['workflow', 'run', 'FILE', '--var', 'x'], /NAME=VALUE/],
    [['workflow', 'run', 'FILE', '--save-healed', 'healed.json'], /add --recover/],
    [['workflow', 'run', 'FILE', '--recover', '--dry-run'], /one or the other/],
    [['workflow', 'run', 'FILE', '--out', 'x.json'], /--out is for workflow record/],
  ])('exits 2 on usage errors: %s', async (argv, message) => {
    const args = argv.map((arg) => (arg === 'FILE' ? write('ok.json', [nameStep], { name: { default: 'A' } }) : arg));
    expect(await cli(...args)).toBe(2);
    expect(err.join('\n')).toMatch(message);
  });

  it('refuses a parameter the workflow does not declare', async () => {
    const file = write('strict.json', [nameStep], { name: { default: 'Ada' } });
    expect(await cli('workflow', 'run', file, '--var', 'nmae=Grace')).toBe(2);
    expect(err[0]).toMatch(/no parameter 'nmae'; its parameters: name/);
  });
});
