/**
 * `deskpilot ask --save-workflow` over FakePlatform and the local scripted SSE model server,
 * then `deskpilot workflow run` of what it saved on a fresh app, with new values and no model.
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

async function cli(platform: FakePlatform, env: Record<string, string>, ...argv: string[]): Promise<number> {
  return main(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text), write: () => undefined, env, platform, stdinIsTTY: false });
}

beforeEach(async () => {
  server = await startFakeOpenAIServer();
  out = [];
  err = [];
});

afterEach(async () => server.close());

describe('ask --save-workflow', () => {
  it('saves the verified actions with the question’s values as parameters, and the workflow replays without a model', async () => {
    const platform = new FakePlatform();
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-save-')), 'signup.json');
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'c1', name: 'ui_find', arguments: '{"role":"textfield","name":"Name"}' }]) },
      (request) => {
        const id = /(\w{5}) textfield Name/.exec(lastToolResult(request))?.[1] ?? '';
        return {
          kind: 'stream',
          steps: toolCallSteps([{ id: 'c2', name: 'ui_action', arguments: JSON.stringify({ action: 'set_value', id, value: 'Grace Hopper' }) }]),
        };
      },
      { kind: 'stream', steps: textSteps(['Done.']) },
    );
    const env = { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model' };
    expect(await cli(platform, env, 'ask', '--pid', String(FIXTURE_PID), '--save-workflow', file, 'put Grace Hopper in the name')).toBe(0);
    expect(err.at(-1)).toMatch(/saved 1 step to .*signup\.json \(parameters: name\)/);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.parameters).toEqual({ name: { description: 'Name (from the question)', default: 'Grace Hopper' } });

    const fresh = new FakePlatform();
    const requests = server.requests.length;
    expect(await cli(fresh, {}, 'workflow', 'run', file, '--var', 'name=Ada Lovelace')).toBe(0);
    expect(fresh.app(FIXTURE_PID).get('name').value).toBe('Ada Lovelace');
    expect(server.requests.length).toBe(requests);
  });

  it('offers the saved workflows to the model as tools with their parameters', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-flows-'));
    writeFileSync(
      path.join(dir, 'weekly.json'),
      JSON.stringify({
        format: 'deskpilot-workflow',
        version: 1,
        name: 'Weekly form',
        app: {},
        parameters: { name: { description: 'Who it is for' } },
        steps: [{ action: 'set_value', target: { role: 'textfield', name: 'Name' }, value: '{{name}}' }],
      }),
    );
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'c1', name: 'workflow_weekly', arguments: '{"name":"Grace"}' }]) },
      { kind: 'stream', steps: textSteps(['Done.']) },
    );
    const platform = new FakePlatform();
    const env = { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model', DESKPILOT_WORKFLOWS_DIR: dir };
    expect(await cli(platform, env, 'ask', '--pid', String(FIXTURE_PID), 'do the weekly form for Grace')).toBe(0);
    const tools = (server.requests[0]?.body as { tools: { function: { name: string; parameters: { required?: string[] } } }[] }).tools;
    const weekly = tools.find((tool) => tool.function.name === 'workflow_weekly');
    expect(weekly?.function.parameters.required).toEqual(['name']);
    expect(platform.app(FIXTURE_PID).get('name').value).toBe('Grace');
  });
});
