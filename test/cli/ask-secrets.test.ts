/** `deskpilot ask`: text the user gives for a password field is typed, and never printed. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastToolResult, startFakeOpenAIServer, textSteps, toolCallSteps, type FakeOpenAIServer } from '../agent/fake-openai-server';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { main } from '../../src/cli/main';
import { FakeClock } from '../../src/core/clock';

let platform: FakePlatform;
let server: FakeOpenAIServer;

beforeEach(async () => {
  platform = new FakePlatform();
  server = await startFakeOpenAIServer();
});

afterEach(async () => server.close());

describe('deskpilot ask and secret fields', () => {
  it('masks the typed password in the tool line and everything else it prints', async () => {
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call_1', name: 'ui_find', arguments: '{"name":"Password"}' }]) },
      (request) => {
        const id = /(\w{5}) textfield Password/.exec(lastToolResult(request))?.[1];
        if (id === undefined) throw new Error(`no field in ${lastToolResult(request)}`);
        return {
          kind: 'stream',
          steps: toolCallSteps([{ id: 'call_2', name: 'ui_action', arguments: JSON.stringify({ action: 'set_value', id, value: 'hunter2' }) }]),
        };
      },
      () => ({ kind: 'stream', steps: textSteps(['Done.']) }),
    );
    const printed: string[] = [];
    const code = await main(['ask', '--pid', String(FIXTURE_PID), 'log in, my password is hunter2'], {
      stdout: (text) => printed.push(text),
      stderr: (text) => printed.push(text),
      write: (text) => printed.push(text),
      onInterrupt: () => () => undefined,
      env: { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model' },
      platform,
      // A secret field's new value cannot be read back, so its effect is looked for until the settle bound: counted on this clock, not waited.
      clock: new FakeClock(),
    });
    expect(code).toBe(0);
    expect(platform.app(FIXTURE_PID).get('password').value).toBe('hunter2');
    expect(printed).toContainEqual(expect.stringMatching(/^→ ui_action set_value \w+ value="•••" … ok/));
    expect(printed.join('\n')).not.toContain('hunter2');
  });
});
