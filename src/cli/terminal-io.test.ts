import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../core/agent/safety';
import { FakePlatform } from '../core/platform/fake/fake-platform';
import { FixtureApp } from '../core/platform/fake/fixture-app';
import { terminalDecider } from './approval';
import type { CliIo } from './context';
import { main } from './main';

/** Anything a terminal would act on: C0 but tab and line feed, C1, bidi controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is this code's purpose
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'Evil\u001b[8m\u202e\u009b2J';
const HOSTILE_PID = 5150;

function hostileDesktop(): FakePlatform {
  const platform = new FakePlatform();
  platform.running.set(HOSTILE_PID, new FixtureApp(HOSTILE));
  platform.app(HOSTILE_PID).get('button').name = 'Delete\u001b[2K\nfake line';
  return platform;
}

async function run(...argv: string[]): Promise<{ code: number; printed: string }> {
  const lines: string[] = [];
  const io: CliIo = { stdout: (text) => lines.push(text), stderr: (text) => lines.push(text), env: {}, platform: hostileDesktop() };
  const code = await main(argv, io);
  return { code, printed: lines.join('\n') };
}

describe('printing app text to a terminal', () => {
  it('escapes control characters in apps, the tree header, find results and errors', async () => {
    for (const argv of [
      ['apps'],
      ['tree', '--pid', String(HOSTILE_PID)],
      ['find', '--pid', String(HOSTILE_PID), '--role', 'button'],
      ['read', '--pid', String(HOSTILE_PID), 'zzzzz'],
    ]) {
      const { printed } = await run(...argv);
      expect(printed, argv.join(' ')).not.toMatch(RAW_CONTROL);
      if (argv[0] === 'apps' || argv[0] === 'tree') expect(printed, argv.join(' ')).toContain('Evil\\u001b[8m\\u202e\\u009b2J');
    }
  });

  it('keeps --json output valid JSON with the same values', async () => {
    const { printed } = await run('apps', '--json');
    expect(printed).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(printed) as { name: string }[]).some((app) => app.name === HOSTILE)).toBe(true);
  });

  it('puts the approval prompt on one line whose choices an app name cannot hide', async () => {
    const lines: string[] = [];
    const request = {
      id: 'p1',
      askId: 'a1',
      callId: 'c1',
      tool: 'ui_action',
      summary: 'click k3x9a',
      reason: '',
      why: { code: 'clicks', values: { name: '"Delete\\u001b[8m"' } },
      plan: { verb: 'click', target: 'Delete' },
      app: `${HOSTILE}\n? allow nothing`,
    } as ApprovalRequest;
    const io = { stdout: () => undefined, stderr: (line: string) => lines.push(line), env: {}, stdinIsTTY: true, readLine: () => Promise.resolve('n') };
    await terminalDecider(io as unknown as CliIo)(request);
    expect(lines[0]).not.toMatch(RAW_CONTROL);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toMatch(/ — \[y\] once, \[a\] for this app, \[n\] no:$/);
  });
});
