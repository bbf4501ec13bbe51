/**
 * `deskpilot ask` over FakePlatform and a real local OpenAI-compatible SSE server. It lives
 * under test/ because the core may not import test helpers (eslint deskpilot/layers).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastToolResult, startFakeOpenAIServer, textSteps, toolCallSteps, type FakeOpenAIServer } from '../agent/fake-openai-server';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { main } from '../../src/cli/main';
import { MISBEHAVING_SERVER } from '../mcp-client/misbehaving-command';

let platform: FakePlatform;
let server: FakeOpenAIServer;
let out: string[];
let written: string[];
let err: string[];
let interrupt: (() => void) | undefined;

async function cli(env: Record<string, string | undefined>, ...argv: string[]): Promise<number> {
  return main(argv, {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    write: (text) => written.push(text),
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => (interrupt = undefined);
    },
    env,
    platform,
  });
}

/** The model's first two turns: find the "Enable feature" checkbox, then click the id it got back. */
function findAndClickCheckbox(): Parameters<typeof server.reply> {
  return [
    { kind: 'stream', steps: toolCallSteps([{ id: 'call_1', name: 'ui_find', arguments: '{"role":"checkbox","name":"Enable feature"}' }]) },
    (request) => {
      const id = /(\w{5}) checkbox Enable feature/.exec(lastToolResult(request))?.[1];
      if (id === undefined) throw new Error(`no checkbox in ${lastToolResult(request)}`);
      return { kind: 'stream', steps: toolCallSteps([{ id: 'call_2', name: 'ui_action', arguments: JSON.stringify({ action: 'click', id }) }]) };
    },
  ];
}

function serverEnv(): Record<string, string> {
  return { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model' };
}

beforeEach(async () => {
  platform = new FakePlatform();
  server = await startFakeOpenAIServer();
  out = [];
  written = [];
  err = [];
  interrupt = undefined;
});

afterEach(async () => server.close());

describe('deskpilot ask', () => {
  it('streams a plain answer to stdout and exits 0', async () => {
    server.reply({ kind: 'stream', steps: textSteps(['The app ', 'has a checkbox.']) });
    expect(await cli(serverEnv(), 'ask', '--pid', String(FIXTURE_PID), 'what is this?')).toBe(0);
    expect(written).toEqual(['The app ', 'has a checkbox.', '\n']);
    expect(err).toEqual([]);
    const body = server.requests[0]?.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe('fake-model');
    expect(body.messages.at(-1)).toMatchObject({ role: 'user', content: 'what is this?' });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer dummy-key');
  });

  it('answers in the question’s language, the terminal’s when it does not tell, or the one --lang fixes', async () => {
    const system = (index: number) => (server.requests[index]?.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
    const tools = (index: number) => JSON.stringify((server.requests[index]?.body as { tools: unknown[] }).tools);
    server.reply(
      { kind: 'stream', steps: textSteps(['Uma janela.']) },
      { kind: 'stream', steps: textSteps(['Ok.']) },
      { kind: 'stream', steps: textSteps(['Uma janela.']) },
    );
    expect(await cli(serverEnv(), 'ask', '--pid', String(FIXTURE_PID), 'o que tem nesta tela?')).toBe(0);
    expect(system(0)).toContain('Responda em português do Brasil');
    expect(tools(0)).toContain('Observar: a árvore de acessibilidade');
    expect(await cli({ ...serverEnv(), LANG: 'pt_BR.UTF-8' }, 'ask', '--pid', String(FIXTURE_PID), 'ok')).toBe(0);
    expect(system(1)).toContain('Responda em português do Brasil');
    expect(await cli(serverEnv(), 'ask', '--lang', 'pt-BR', '--pid', String(FIXTURE_PID), 'what is this?')).toBe(0);
    expect(system(2)).toContain('Responda em português do Brasil');
    expect(await cli(serverEnv(), 'ask', '--lang', 'klingon', '--pid', String(FIXTURE_PID), 'what is this?')).toBe(2);
    expect(err.at(-1)).toMatch(/VALIDATION.*unknown language 'klingon'; languages: en, pt-BR/);
  });

  it('uses a tool from an MCP server in a Claude Desktop config and a UI tool in the same answer', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-ask-mcp-'));
    const config = path.join(dir, 'claude_desktop_config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { odd: MISBEHAVING_SERVER } }));
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'call_0', name: 'odd__echo', arguments: '{"text":"invoice total 42"}' }]) },
      ...findAndClickCheckbox(),
      { kind: 'stream', steps: textSteps(['The total is 42, and the feature is enabled.']) },
    );
    expect(await cli(serverEnv(), 'ask', '--mcp-config', config, '--app', 'deskpilot fixture', 'read the total and enable the feature')).toBe(0);
    const first = server.requests[0]?.body as { tools: { function: { name: string } }[] };
    expect(first.tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['ui_action', 'odd__echo', 'odd__hang']));
    // The server's output reaches the model quoted as data, like text read from an app.
    const quoted = lastToolResult(server.requests[1] as NonNullable<(typeof server.requests)[number]>);
    expect(quoted).toContain('<ui_data>');
    expect(quoted).toContain('echo: invoice total 42');
    expect(err[0]).toMatch(/^deskpilot: MCP server odd started with \d+ tools$/);
    expect(err).toContainEqual(expect.stringMatching(/^→ odd__echo text="invoice total 42" … ok: echo: invoice total 42/));
    expect(platform.app(FIXTURE_PID).get('toggle').checked).toBe(true);
  }, 30_000);

  it('runs tool calls, prints one line per call on stderr, and the click lands', async () => {
    server.reply(...findAndClickCheckbox(), { kind: 'stream', steps: textSteps(['Done: the feature is enabled.']) });
    expect(await cli(serverEnv(), 'ask', '--app', 'deskpilot fixture', 'enable the feature')).toBe(0);
    expect(written.join('')).toBe('Done: the feature is enabled.\n');
    expect(err).toEqual([
      expect.stringMatching(/^→ ui_find role="checkbox" name="Enable feature" … ok: \w{5} checkbox Enable feature/),
      expect.stringMatching(/^→ ui_action click \w+ … ok \(accessibility, changed\)$/),
    ]);
    expect(platform.app(FIXTURE_PID).get('toggle').checked).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('prints the end-state note when the app undid the action, after the streamed answer', async () => {
    server.reply(...findAndClickCheckbox(), () => {
      // The app turns it off again before the agent looks.
      platform.app(FIXTURE_PID).get('toggle').checked = false;
      return { kind: 'stream', steps: textSteps(['Done: the feature is enabled.']) };
    });
    expect(await cli(serverEnv(), 'ask', '--pid', String(FIXTURE_PID), 'enable the feature')).toBe(0);
    expect(written.join('')).toBe(
      'Done: the feature is enabled.\n\nI could not confirm that this worked: checkbox "Enable feature" changed back: it is not checked any more.\n',
    );
  });

  it('prints the typed one-line error for a missing key and exits 2', async () => {
    // A chosen preset without its key fails at once; no local server is looked for.
    expect(await cli({ DESKPILOT_PROVIDER: 'openrouter' }, 'ask', 'hello')).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^deskpilot: PROVIDER_CONFIG: No API key for OpenRouter\. .*DESKPILOT_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('with no key anywhere, uses a local Ollama (OLLAMA_HOST) and its first model', async () => {
    const host = new URL(server.baseUrl).host;
    server.reply(
      { kind: 'error', status: 200, body: { object: 'list', data: [{ id: 'qwen3:4b', object: 'model' }] } },
      { kind: 'stream', steps: textSteps(['From a local model.']) },
    );
    expect(await cli({ OLLAMA_HOST: host }, 'ask', '--pid', String(FIXTURE_PID), 'hello')).toBe(0);
    expect(written.join('')).toBe('From a local model.\n');
    const chat = server.requests.find((request) => request.method === 'POST');
    expect(chat?.body['model']).toBe('qwen3:4b');
  });

  it('lets --preset win over DESKPILOT_PROVIDER, and names a bad DESKPILOT_PROVIDER', async () => {
    expect(await cli({ DESKPILOT_PROVIDER: 'ollama' }, 'ask', '--preset', 'openai', 'hi')).toBe(2);
    expect(err[0]).toMatch(/^deskpilot: PROVIDER_CONFIG: No API key for OpenAI\./);
    expect(await cli({ DESKPILOT_PROVIDER: 'skynet' }, 'ask', 'hi')).toBe(2);
    expect(err[1]).toMatch(/^deskpilot: PROVIDER_CONFIG: DESKPILOT_PROVIDER is 'skynet'/);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects an unknown preset and an empty question', async () => {
    expect(await cli(serverEnv(), 'ask', '--preset', 'skynet', 'hi')).toBe(2);
    expect(await cli(serverEnv(), 'ask')).toBe(2);
    expect(err[0]).toMatch(/^deskpilot: VALIDATION: unknown provider preset 'skynet'; presets: openrouter, /);
    expect(err[1]).toMatch(/^deskpilot: VALIDATION: ask needs a question/);
  });

  it('stops the agent on Ctrl-C and exits 130', async () => {
    // The answer stalls for longer than the test may run: only the interrupt can end the ask.
    server.reply({ kind: 'stream', steps: [...textSteps(['Thinking'], 'stop').slice(0, 2), { delayMs: 600_000 }, { finishReason: 'stop' }] });
    const running = cli(serverEnv(), 'ask', 'take your time');
    // Interrupted mid-answer: once the first words are out, not after a guessed sleep.
    await vi.waitFor(() => expect([...out, ...written].join('')).toContain('Thinking'), { timeout: 15_000 });
    interrupt?.();
    expect(await running).toBe(130);
    expect(err.at(-1)).toBe('deskpilot: stopped');
    expect(interrupt).toBeUndefined();
  });
});
