/** `deskpilot ask` approvals: --yes, terminal answers, and the non-TTY denial. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastToolResult, startFakeOpenAIServer, textSteps, toolCallSteps, type FakeOpenAIServer } from '../agent/fake-openai-server';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import type { CliIo } from '../../src/cli/context';
import { main } from '../../src/cli/main';

let platform: FakePlatform;
let server: FakeOpenAIServer;
let err: string[];

async function cli(io: Partial<CliIo>, ...argv: string[]): Promise<number> {
  return main(argv, {
    stdout: () => undefined,
    stderr: (text) => err.push(text),
    write: () => undefined,
    onInterrupt: () => () => undefined,
    env: { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model' },
    platform,
    ...io,
  });
}

/** The model finds the "Delete all" button and clicks it, then answers with what the click returned. */
function scriptDeleteClick(): void {
  server.reply(
    { kind: 'stream', steps: toolCallSteps([{ id: 'call_1', name: 'ui_find', arguments: '{"role":"button","name":"Delete all"}' }]) },
    (request) => {
      const id = /(\w{5}) button Delete all/.exec(lastToolResult(request))?.[1];
      if (id === undefined) throw new Error(`no button in ${lastToolResult(request)}`);
      return { kind: 'stream', steps: toolCallSteps([{ id: 'call_2', name: 'ui_action', arguments: JSON.stringify({ action: 'click', id }) }]) };
    },
    (request) => ({ kind: 'stream', steps: textSteps([lastToolResult(request).startsWith('DENIED') ? 'Not deleted.' : 'Deleted.']) }),
  );
}

beforeEach(async () => {
  platform = new FakePlatform();
  platform.app(FIXTURE_PID).get('button').name = 'Delete all';
  server = await startFakeOpenAIServer();
  err = [];
});

afterEach(async () => server.close());

describe('deskpilot ask approvals', () => {
  it('--yes runs risky actions without asking', async () => {
    scriptDeleteClick();
    const readLine = async (): Promise<string> => {
      throw new Error('must not ask');
    };
    expect(await cli({ stdinIsTTY: true, readLine }, 'ask', '--yes', '--pid', String(FIXTURE_PID), 'delete everything')).toBe(0);
    expect(platform.app(FIXTURE_PID).clicks).toBe(1);
    expect(err.some((line) => line.startsWith('?'))).toBe(false);
  });

  it('without --yes and without a terminal, denies and tells the user to pass --yes', async () => {
    scriptDeleteClick();
    expect(await cli({ stdinIsTTY: false }, 'ask', '--pid', String(FIXTURE_PID), 'delete everything')).toBe(0);
    expect(platform.app(FIXTURE_PID).clicks).toBe(0);
    expect(err).toContainEqual(
      expect.stringMatching(/^deskpilot: denied ui_action .*"Delete all" may delete, send or buy something.*stdin is not a terminal.*pass --yes/),
    );
    expect(err).toContainEqual(expect.stringMatching(/^→ ui_action click \w+ … failed: DENIED/));
  });

  it('on a terminal, prompts on stderr and reads the answer: y allows once', async () => {
    scriptDeleteClick();
    const lines = ['y'];
    expect(await cli({ stdinIsTTY: true, readLine: async () => lines.shift() }, 'ask', '--pid', String(FIXTURE_PID), 'delete everything')).toBe(0);
    expect(err).toContainEqual(
      expect.stringMatching(
        /^\? allow ui_action click \w+ .*"Delete all" may delete, send or buy something, which cannot always be undone — \[y\] once, \[a\] for this app, \[n\] no:$/,
      ),
    );
    expect(platform.app(FIXTURE_PID).clicks).toBe(1);
  });

  it('on a terminal, n or anything else denies', async () => {
    scriptDeleteClick();
    expect(await cli({ stdinIsTTY: true, readLine: async () => 'maybe' }, 'ask', '--pid', String(FIXTURE_PID), 'delete everything')).toBe(0);
    expect(platform.app(FIXTURE_PID).clicks).toBe(0);
    expect(err).toContain('  denied');
  });
});
