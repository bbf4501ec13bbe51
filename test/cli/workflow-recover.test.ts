/**
 * `deskpilot workflow run --recover` over FakePlatform and the local scripted SSE model server:
 * a step whose button was renamed halts, the agent names the button with read-only tools, the
 * proposal is printed, the original file stays as it was, and the healed copy replays.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastToolResult, startFakeOpenAIServer, textSteps, toolCallSteps, type FakeOpenAIServer } from '../agent/fake-openai-server';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { main } from '../../src/cli/main';

let server: FakeOpenAIServer;
let out: string[];
let err: string[];

beforeEach(async () => {
  server = await startFakeOpenAIServer();
  out = [];
  err = [];
});

afterEach(async () => server.close());

describe('workflow run --recover', () => {
  it('proposes a locator for the halted step and writes it only to --save-healed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-recover-'));
    const file = path.join(dir, 'toggle.json');
    const healed = path.join(dir, 'toggle-healed.json');
    const original = JSON.stringify({
      format: 'deskpilot-workflow',
      version: 1,
      name: 'toggle',
      app: { name: 'Deskpilot Fixture' },
      steps: [
        {
          action: 'click',
          intent: 'turn the feature on',
          target: { role: 'checkbox', name: 'Enable feature' },
          expect: { states: { checked: true } },
          timeoutMs: 0,
        },
      ],
    });
    writeFileSync(file, original);
    const platform = new FakePlatform();
    platform.app(FIXTURE_PID).get('toggle').name = 'Turn on feature';
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'c1', name: 'ui_find', arguments: '{"role":"checkbox"}' }]) },
      (request) => {
        expect(JSON.stringify(request.body)).toContain('turn the feature on');
        const id = /(\w{5}) checkbox Turn on feature/.exec(lastToolResult(request))?.[1] ?? '';
        return {
          kind: 'stream',
          steps: toolCallSteps([
            { id: 'c2', name: 'workflow_propose_target', arguments: JSON.stringify({ id, reason: 'the only check box about the feature' }) },
          ]),
        };
      },
      { kind: 'stream', steps: textSteps(['Proposed.']) },
    );
    const env = { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model' };
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text), env, platform, stdinIsTTY: false };
    expect(await main(['workflow', 'run', file, '--recover', '--save-healed', healed], io)).toBe(3);
    expect(err.join('\n')).toContain('proposed change to step 1:\n  - checkbox "Enable feature"\n  + checkbox "Turn on feature"');
    expect(readFileSync(file, 'utf8')).toBe(original);
    // The tools the recovering agent had could only read.
    const tools = (server.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(tools).not.toContain('ui_action');
    expect(tools).toContain('workflow_propose_target');
    expect(platform.app(FIXTURE_PID).get('toggle').checked).toBe(false);

    out = [];
    expect(await main(['workflow', 'run', healed], { ...io, env: {} })).toBe(0);
    expect(platform.app(FIXTURE_PID).get('toggle').checked).toBe(true);
  });
});
