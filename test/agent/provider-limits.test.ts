/**
 * The model stream against a local SSE server on 127.0.0.1, with short injected limits: a
 * stream that only sends keep-alives, one that never ends, and a 200 that is no stream at all.
 * Each is a typed PROVIDER_* error naming the configured server; nothing asserts wall-clock time.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleProvider, type StreamPart } from '../../src/core/agent/provider';
import { DeskpilotError, serializeError } from '../../src/shared/errors';
import { startFakeOpenAIServer, textSteps, type FakeOpenAIServer, type SseStep } from './fake-openai-server';

const KEY = 'sk-limits-SECRET-1234';
let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function provider(limits: { idleMs?: number; totalMs?: number }): OpenAICompatibleProvider {
  const env = { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: KEY, DESKPILOT_MODEL: 'test-model' };
  return new OpenAICompatibleProvider({ settings: () => ({}), env: () => env, limits });
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

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
const repeat = (count: number, steps: SseStep[]): SseStep[] => Array.from({ length: count }, () => steps).flat();

describe('stream limits', () => {
  it('keep-alive comments are no progress: a stream that only sends them ends with PROVIDER_TIMEOUT (idle)', async () => {
    server.reply({
      kind: 'stream',
      steps: [{ delta: { content: 'Hel' } }, ...repeat(100, [{ raw: ': keep-alive\n\n' }, { delayMs: 20 }]), { finishReason: 'stop' }],
    });
    const { error, seen } = await failure(provider({ idleMs: 150 }).stream(ask));
    expect(seen).toEqual([{ type: 'text', delta: 'Hel' }]);
    expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', isRetryable: true, data: { reason: 'idle', limitMs: 150, partial: 'Hel' } });
    expect(error.message).toBe(
      `the server at ${server.baseUrl} stopped sending the answer: nothing came for 0.2 s (keep-alives aside), so the request was ended.`,
    );
  });

  it('empty chunks do not count as progress either', async () => {
    server.reply({
      kind: 'stream',
      steps: [...repeat(100, [{ raw: 'data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[]}\n\n' }, { delayMs: 20 }])],
    });
    const { error } = await failure(provider({ idleMs: 150 }).stream(ask));
    expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', data: { reason: 'idle' } });
  });

  it('a stream that keeps sending tokens is cut at the overall cap with PROVIDER_TIMEOUT (total)', async () => {
    server.reply({ kind: 'stream', steps: repeat(200, [{ delta: { content: 'la ' } }, { delayMs: 10 }]) });
    const { error, seen } = await failure(provider({ idleMs: 5_000, totalMs: 300 }).stream(ask));
    expect(seen.length).toBeGreaterThan(0);
    expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', data: { reason: 'total', limitMs: 300 } });
    expect(error.message).toMatch(/^The answer from the server at .* took longer than 0\.3 s in all/);
  });

  it('a server that never sends its headers is bounded by the overall cap', async () => {
    const hanging = startHanging();
    try {
      const env = { DESKPILOT_BASE_URL: (await hanging).baseUrl, DESKPILOT_MODEL: 'm' };
      const slow = new OpenAICompatibleProvider({ settings: () => ({}), env: () => env, limits: { totalMs: 200 } });
      const { error } = await failure(slow.stream(ask));
      expect(error).toMatchObject({ code: 'PROVIDER_TIMEOUT', data: { reason: 'total' } });
    } finally {
      await (await hanging).close();
    }
  });

  it('a normal stream within the limits is untouched, and the caller aborting is still no error', async () => {
    server.reply({ kind: 'stream', steps: textSteps(['O', 'K']) });
    const parts: StreamPart[] = [];
    for await (const part of provider({ idleMs: 1_000, totalMs: 5_000 }).stream(ask)) parts.push(part);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });

    server.reply({ kind: 'stream', steps: [{ delta: { content: 'a' } }, { delayMs: 2_000 }, { finishReason: 'stop' }] });
    const controller = new AbortController();
    const seen: StreamPart[] = [];
    for await (const part of provider({ idleMs: 5_000 }).stream(ask, controller.signal)) {
      seen.push(part);
      controller.abort();
    }
    expect(seen).toEqual([{ type: 'text', delta: 'a' }]);
  });
});

describe('a 200 that is not an OpenAI stream', () => {
  it.each([
    ['a web page', 'text/html; charset=utf-8', '<!doctype html><html><body>Router login</body></html>'],
    ['a plain JSON answer', 'application/json', '{"choices":[{"message":{"content":"hi"}}]}'],
  ])('%s says exactly that, naming the configured server, not a preset', async (_what, contentType, body) => {
    server.reply({ kind: 'raw', status: 200, contentType, body });
    const { error } = await failure(provider({}).stream(ask));
    expect(error).toMatchObject({ code: 'PROVIDER_SERVER', data: { reason: 'not-a-stream', contentType } });
    expect(error.message).toMatch(
      new RegExp(`^the server at ${server.baseUrl.replaceAll('.', '\\.')} answered HTTP 200, but not with an OpenAI-compatible stream`),
    );
    expect(error.message).not.toMatch(/OpenRouter/);
    expect(JSON.stringify(serializeError(error))).not.toContain(KEY);
  });
});

/** A server that accepts the request and never answers it. */
async function startHanging(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const hanging = createServer(() => undefined);
  hanging.on('connection', (socket) => {
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  const { port } = hanging.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        hanging.close(() => resolve());
      }),
  };
}

describe('a refusal over one MCP server tool', () => {
  it('blames that tool and its server, not the provider', async () => {
    server.reply({ kind: 'error', status: 400, body: { error: { message: "Invalid schema for function 'files__read_file': array schema missing items." } } });
    const tools = [{ type: 'function' as const, function: { name: 'files__read_file', parameters: { type: 'object' } } }];
    const { error } = await failure(provider({}).stream({ ...ask, tools }));
    expect(error).toMatchObject({ code: 'TOOL_SERVER', data: { tool: 'files__read_file', server: 'files', status: 400 } });
    expect(error.message).toMatch(/refused the tool files__read_file, from the MCP server files/);
  });
});
