import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleProvider, type ProviderSettings, type StreamPart } from '../../src/core/agent/provider';
import { DeskpilotError, serializeError } from '../../src/shared/errors';
import { startFakeOpenAIServer, textSteps, toolCallDelta, type FakeOpenAIServer } from './fake-openai-server';

const KEY = 'sk-test-SECRET-4242';
let server: FakeOpenAIServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  env = { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: KEY };
});

function provider(settings: ProviderSettings = { preset: 'openrouter', model: 'test/model' }): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({ settings: () => settings, env: () => env, fetch: globalThis.fetch });
}

async function collect(parts: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const result: StreamPart[] = [];
  for await (const part of parts) result.push(part);
  return result;
}

async function failure(parts: AsyncIterable<StreamPart>): Promise<{ error: DeskpilotError; seen: StreamPart[] }> {
  const seen: StreamPart[] = [];
  try {
    for await (const part of parts) seen.push(part);
  } catch (error) {
    expect(error).toBeInstanceOf(DeskpilotError);
    return { error: error as DeskpilotError, seen };
  }
  throw new Error('expected the stream to fail');
}

/** Every string a user or a log could see: message, data and the cause chain. */
function visibleText(error: unknown): string {
  const texts: string[] = [JSON.stringify(serializeError(error))];
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    texts.push(current.message, String(current.stack));
  }
  return texts.join('\n');
}

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('streaming through the openai SDK', () => {
  it('sends half an emoji (a cut result, macOS UTF-16 text) as U+FFFD, never as a lone \\ud83d a strict parser refuses', async () => {
    server.reply({ kind: 'stream', steps: textSteps(['ok']) });
    const half = '😀'.slice(0, 1);
    await collect(provider().stream({ messages: [{ role: 'user', content: `Result: ${half}` }] }));
    expect(server.requests[0]?.body['messages']).toEqual([{ role: 'user', content: 'Result: \uFFFD' }]);
  });

  it('streams text deltas and a finish with usage', async () => {
    server.reply({
      kind: 'stream',
      steps: [...textSteps(['Hel', 'lo', ' there']), { usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } }],
    });
    const parts = await collect(provider().stream(ask));
    expect(parts).toEqual([
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo' },
      { type: 'text', delta: ' there' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } },
    ]);
  });

  it('sends the model, key, OpenRouter site headers, DESKPILOT_HEADERS and the tools payload', async () => {
    env['DESKPILOT_MODEL'] = 'env/model';
    env['DESKPILOT_HEADERS'] = 'X-Team: blue; X-Trace-Id: 42';
    server.reply({ kind: 'stream', steps: textSteps(['ok']) });
    const tools = [{ type: 'function' as const, function: { name: 'ui_tree', description: 'tree', parameters: { type: 'object', properties: {} } } }];
    await collect(provider().stream({ ...ask, tools, temperature: 0 }));
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-team']).toBe('blue');
    expect(request?.headers['x-trace-id']).toBe('42');
    expect(request?.headers['http-referer']).toBe('https://github.com/deskpilot/deskpilot');
    expect(request?.headers['x-title']).toBe('Deskpilot');
    expect(request?.body).toMatchObject({ model: 'env/model', stream: true, tools, temperature: 0, messages: ask.messages });
  });

  it('reads the environment fresh on every call', async () => {
    const shared = provider();
    server.reply({ kind: 'stream', steps: textSteps(['a']) }, { kind: 'stream', steps: textSteps(['b']) });
    env['DESKPILOT_MODEL'] = 'first';
    await collect(shared.stream(ask));
    env['DESKPILOT_MODEL'] = 'second';
    env['DESKPILOT_API_KEY'] = 'sk-rotated';
    await collect(shared.stream(ask));
    expect(server.requests.map((request) => request.body['model'])).toEqual(['first', 'second']);
    expect(server.requests[1]?.headers['authorization']).toBe('Bearer sk-rotated');
  });

  it('names the endpoint and model the next request goes to, for the response cache, without the key', async () => {
    const shared = provider();
    env['DESKPILOT_MODEL'] = 'first';
    const first = await shared.identity();
    expect(first).toContain(server.baseUrl);
    expect(first).toContain('first');
    env['DESKPILOT_MODEL'] = 'second';
    expect(await shared.identity()).not.toBe(first);
    expect(first).not.toContain(KEY);
    expect(server.requests).toHaveLength(0);
  });

  it('assembles two parallel tool calls whose fragments interleave across chunks', async () => {
    server.reply({
      kind: 'stream',
      steps: [
        { delta: { role: 'assistant', content: null } },
        toolCallDelta(0, { id: 'call_a', name: 'ui_action', arguments: '' }),
        toolCallDelta(1, { id: 'call_b', name: 'ui_read', arguments: '{"id"' }),
        toolCallDelta(0, { arguments: '{"id":"n3",' }),
        toolCallDelta(1, { arguments: ':"n7"}' }),
        toolCallDelta(0, { arguments: '"action":"click"}' }),
        { finishReason: 'tool_calls' },
      ],
    });
    const parts = await collect(provider().stream(ask));
    expect(parts).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'ui_action', arguments: '{"id":"n3","action":"click"}' },
      { type: 'tool_call', id: 'call_b', name: 'ui_read', arguments: '{"id":"n7"}' },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('passes malformed tool arguments through raw for the agent to judge', async () => {
    server.reply({
      kind: 'stream',
      steps: [toolCallDelta(0, { id: 'c1', name: 'ui_tree', arguments: '{"depth": 2' }), { finishReason: 'tool_calls' }],
    });
    const parts = await collect(provider().stream(ask));
    expect(parts[0]).toEqual({ type: 'tool_call', id: 'c1', name: 'ui_tree', arguments: '{"depth": 2' });
  });

  it('works keyless against a local preset and sends no real key', async () => {
    delete env['DESKPILOT_API_KEY'];
    server.reply({ kind: 'stream', steps: textSteps(['local']) });
    const parts = await collect(provider({ preset: 'ollama', model: 'llama3.2' }).stream(ask));
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    // The SDK insists on a key; local servers ignore this placeholder.
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer no-key');
    expect(server.requests[0]?.headers['http-referer']).toBeUndefined();
  });
});

describe('error mapping', () => {
  it('maps 401 to PROVIDER_AUTH, not retryable, without the key', async () => {
    server.reply({ kind: 'error', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } });
    const { error } = await failure(provider().stream(ask));
    expect(error.code).toBe('PROVIDER_AUTH');
    expect(error.isRetryable).toBe(false);
    expect(error.message).not.toContain(KEY);
    expect(serializeError(error).message).not.toContain(KEY);
  });

  it('maps 403 to PROVIDER_AUTH', async () => {
    server.reply({ kind: 'error', status: 403 });
    expect((await failure(provider().stream(ask))).error.code).toBe('PROVIDER_AUTH');
  });

  it('maps 429 to PROVIDER_RATE_LIMIT with retry-after in milliseconds', async () => {
    server.reply({ kind: 'error', status: 429, headers: { 'retry-after': '7' } });
    const { error } = await failure(provider().stream(ask));
    expect(error.code).toBe('PROVIDER_RATE_LIMIT');
    expect(error.isRetryable).toBe(true);
    expect(error.data).toMatchObject({ retryAfterMs: 7000, status: 429 });
    expect(server.requests).toHaveLength(1); // maxRetries: 0, the caller decides
  });

  it('maps 500 to PROVIDER_SERVER, retryable', async () => {
    server.reply({ kind: 'error', status: 500 });
    const { error } = await failure(provider().stream(ask));
    expect(error).toMatchObject({ code: 'PROVIDER_SERVER', isRetryable: true });
  });

  it('maps a refused connection to PROVIDER_CONNECTION with a hint for local servers', async () => {
    const closed = await startFakeOpenAIServer();
    await closed.close();
    env['DESKPILOT_BASE_URL'] = closed.baseUrl;
    const remote = await failure(provider().stream(ask));
    expect(remote.error).toMatchObject({ code: 'PROVIDER_CONNECTION', isRetryable: true, data: { server: closed.baseUrl, reason: 'refused' } });
    // Only a base URL was set: the message names that server and why, not the preset (OpenRouter).
    expect(remote.error.message).toMatch(new RegExp(`^Could not reach the server at ${closed.baseUrl.replaceAll('.', '\\.')}: the connection was refused\\.`));
    expect(remote.error.message).not.toContain('OpenRouter');
    const local = await failure(provider({ preset: 'ollama' }).stream(ask));
    expect(local.error.code).toBe('PROVIDER_CONNECTION');
    expect(local.error.message).toContain('ollama serve');
    const studio = await failure(provider({ preset: 'lmstudio', model: 'qwen' }).stream(ask));
    expect(studio.error.message).toContain('LM Studio');
  });

  it('maps a DNS failure to PROVIDER_CONNECTION, through the injected fetch', async () => {
    // Shaped like undici's failure, so no lookup leaves the machine.
    const dnsFailure: typeof fetch = () =>
      Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.example'), { code: 'ENOTFOUND' }) }));
    const offline = new OpenAICompatibleProvider({ settings: () => ({ preset: 'openai' }), env: () => ({ OPENAI_API_KEY: KEY }), fetch: dnsFailure });
    const { error } = await failure(offline.stream(ask));
    expect(error).toMatchObject({ code: 'PROVIDER_CONNECTION', isRetryable: true, data: { server: 'OpenAI', reason: 'dns' } });
    expect(error.message).toContain('Could not reach OpenAI at https://api.openai.com/v1: the name could not be found (DNS).');
    expect(visibleText(error)).not.toContain(KEY);
  });

  it('hints at starting a local server when a loopback base URL refuses', async () => {
    const closed = await startFakeOpenAIServer();
    await closed.close();
    env['DESKPILOT_BASE_URL'] = closed.baseUrl;
    const { error } = await failure(provider().stream(ask));
    expect(error.message).toMatch(/Is the local server running\?.*ollama serve/);
  });

  it('turns a socket destroyed mid-answer into PROVIDER_STREAM keeping the partial text', async () => {
    server.reply({ kind: 'stream', steps: [{ delta: { content: 'The answer ' } }, { delta: { content: 'is' } }], end: 'destroy' });
    const { error, seen } = await failure(provider().stream(ask));
    expect(seen).toEqual([
      { type: 'text', delta: 'The answer ' },
      { type: 'text', delta: 'is' },
    ]);
    expect(error.code).toBe('PROVIDER_STREAM');
    expect(error.isRetryable).toBe(true);
    expect(error.data).toEqual({ partial: 'The answer is', interrupted: true });
  });

  it('treats a stream that closes cleanly without finish or [DONE] as cut', async () => {
    server.reply({ kind: 'stream', steps: [{ delta: { content: 'half' } }], end: 'close-without-done' });
    const { error } = await failure(provider().stream(ask));
    expect(error.code).toBe('PROVIDER_STREAM');
    expect(error.data?.['partial']).toBe('half');
  });

  it('keeps the partial text when the server sends an error event mid-stream', async () => {
    server.reply({ kind: 'stream', steps: [{ delta: { content: 'so far' } }, { raw: 'data: {"error":{"message":"overloaded"}}\n\n' }] });
    const { error } = await failure(provider().stream(ask));
    expect(error.code).toBe('PROVIDER_STREAM');
    expect(error.data?.['partial']).toBe('so far');
  });

  it('never puts the key in any error, its data or its causes', async () => {
    env['DESKPILOT_HEADERS'] = `Authorization: Bearer ${KEY}; broken`;
    const headerError = await failure(provider().stream(ask));
    expect(headerError.error.code).toBe('PROVIDER_CONFIG');
    delete env['DESKPILOT_HEADERS'];
    server.reply(
      { kind: 'error', status: 401, body: { error: { message: `bad key ${KEY}` } } },
      { kind: 'error', status: 429 },
      { kind: 'error', status: 500, body: { error: { message: `echo ${KEY}` } } },
      { kind: 'stream', steps: [{ delta: { content: 'x' } }], end: 'destroy' },
    );
    const errors = [headerError.error];
    for (let index = 0; index < 4; index += 1) errors.push((await failure(provider().stream(ask))).error);
    for (const error of errors) expect(visibleText(error)).not.toContain(KEY);
  });
});

describe('cancellation', () => {
  // The server stalls for longer than the test may run: the stream ending at all is the abort's doing.
  const STALL_MS = 600_000;

  it('ends a stalled stream on abort, with no error and no finish', async () => {
    server.reply({
      kind: 'stream',
      steps: [{ delta: { content: 'first' } }, { delayMs: STALL_MS }, { delta: { content: 'late' } }, { finishReason: 'stop' }],
    });
    const controller = new AbortController();
    const parts: StreamPart[] = [];
    for await (const part of provider().stream(ask, controller.signal)) {
      parts.push(part);
      controller.abort();
    }
    expect(parts).toEqual([{ type: 'text', delta: 'first' }]);
  });

  it('ends when aborted while the server has not answered yet', async () => {
    const controller = new AbortController();
    // The abort comes the moment the server has the request, before it writes anything.
    server.reply(() => {
      controller.abort();
      return { kind: 'stream', steps: [{ delayMs: STALL_MS }, { finishReason: 'stop' }] };
    });
    const parts = await collect(provider().stream(ask, controller.signal));
    expect(parts).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('does nothing for an already aborted signal', async () => {
    const parts = await collect(provider().stream(ask, AbortSignal.abort()));
    expect(parts).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});

describe('a local model server found by probing', () => {
  it('with nothing configured, streams from the first local server that lists a model, using that model', async () => {
    // A server of its own, so no late request of another test lands in its log. It plays
    // Ollama: it answers the probe's GET /models, then the chat requests.
    const server = await startFakeOpenAIServer();
    try {
      server.reply(
        {
          kind: 'error',
          status: 200,
          body: {
            object: 'list',
            data: [
              { id: 'llama3.2:3b', object: 'model' },
              { id: 'other', object: 'model' },
            ],
          },
        },
        { kind: 'stream', steps: textSteps(['local ', 'answer']) },
      );
      const local = new OpenAICompatibleProvider({
        settings: () => ({}),
        env: () => ({}),
        probe: { servers: [{ preset: 'ollama', baseUrl: server.baseUrl }], timeoutMs: 5_000 },
      });
      const parts = await collect(local.stream(ask));
      expect(
        parts
          .filter((part) => part.type === 'text')
          .map((part) => (part as { delta: string }).delta)
          .join(''),
      ).toBe('local answer');
      expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
      expect(server.requests[1]?.body['model']).toBe('llama3.2:3b');
      // Local servers take no key; the SDK still sends a placeholder, never a real one.
      expect(server.requests[1]?.headers['authorization']).toBe('Bearer no-key');
      // The next request of the conversation reuses the server found, without probing again.
      server.reply({ kind: 'stream', steps: textSteps(['again']) });
      await collect(local.stream(ask));
      expect(server.requests.map((request) => request.method)).toEqual(['GET', 'POST', 'POST']);
    } finally {
      await server.close();
    }
  });
});
