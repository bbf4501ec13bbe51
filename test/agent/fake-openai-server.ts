/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for provider and agent tests. Each
 * request takes the next scripted reply; the server records what it received so tests
 * can check the model, headers and tools the client actually sent.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** One step of an SSE reply: a chunk's `delta` (plus finish), a pause, or a raw event. */
export type SseStep =
  | { delta: Record<string, unknown>; finishReason?: string }
  | { finishReason: string }
  | { usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } }
  | { raw: string }
  | { delayMs: number };

export type Reply =
  | { kind: 'stream'; steps: SseStep[]; end?: 'done' | 'destroy' | 'close-without-done' }
  | { kind: 'error'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Any body with any content type: a web page or a plain JSON answer where a stream was asked for. */
  | { kind: 'raw'; status: number; contentType: string; body: string };

/** A scripted reply, or a function that builds one from the request (to answer with ids from earlier tool results). */
export type ScriptedReply = Reply | ((request: RecordedRequest) => Reply);

export interface FakeOpenAIServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies for the next requests, in order. */
  reply(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

export async function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
      };
      requests.push(recorded);
      const scripted = queue.shift() ?? { kind: 'error', status: 500, body: { error: { message: 'no scripted reply' } } };
      let next: Reply;
      try {
        next = typeof scripted === 'function' ? scripted(recorded) : scripted;
      } catch (error) {
        next = { kind: 'error', status: 500, body: { error: { message: `script failed: ${(error as Error).message}` } } };
      }
      void send(next, response, request.socket);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function send(reply: Reply, response: ServerResponse, socket: Socket): Promise<void> {
  if (reply.kind === 'raw') {
    response.writeHead(reply.status, { 'content-type': reply.contentType }).end(reply.body);
    return;
  }
  if (reply.kind === 'error') {
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.body ?? { error: { message: `status ${reply.status}`, type: 'fake' } }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.flushHeaders();
  for (const step of reply.steps) {
    if (response.destroyed) return; // the client aborted
    if ('delayMs' in step) {
      // The pause ends early when the client hangs up, so a stall longer than a test leaves no timer behind.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, step.delayMs);
        response.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    } else if ('raw' in step) {
      response.write(step.raw);
    } else {
      response.write(`data: ${JSON.stringify(toChunk(step))}\n\n`);
    }
  }
  if (response.destroyed) return;
  const end = reply.end ?? 'done';
  if (end === 'destroy') {
    // Let the chunks already written reach the client first; destroy() discards unsent data.
    await new Promise((resolve) => setTimeout(resolve, 25));
    socket.destroy(); // a connection cut mid-answer, without a chunked-encoding terminator
  } else {
    if (end === 'done') response.write('data: [DONE]\n\n');
    response.end();
  }
}

function toChunk(step: Exclude<SseStep, { raw: string } | { delayMs: number }>): Record<string, unknown> {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake-model' };
  if ('usage' in step) return { ...base, choices: [], usage: step.usage };
  const delta = 'delta' in step ? step.delta : {};
  return { ...base, choices: [{ index: 0, delta, finish_reason: step.finishReason ?? null }] };
}

/** Text deltas, one chunk each, then a finish chunk. */
export function textSteps(pieces: string[], finishReason = 'stop'): SseStep[] {
  return [{ delta: { role: 'assistant', content: '' } }, ...pieces.map((content) => ({ delta: { content } })), { finishReason }];
}

/** One tool-call fragment as the OpenAI API sends it (id and name only on the first). */
export function toolCallDelta(index: number, fields: { id?: string; name?: string; arguments?: string }): SseStep {
  const fn: Record<string, string> = {};
  if (fields.name !== undefined) fn['name'] = fields.name;
  if (fields.arguments !== undefined) fn['arguments'] = fields.arguments;
  const call: Record<string, unknown> = { index, function: fn };
  if (fields.id !== undefined) {
    call['id'] = fields.id;
    call['type'] = 'function';
  }
  return { delta: { tool_calls: [call] } };
}

/** A whole turn that calls tools: one complete fragment per call, then finish_reason tool_calls. */
export function toolCallSteps(calls: { id: string; name: string; arguments: string }[]): SseStep[] {
  return [{ delta: { role: 'assistant', content: null } }, ...calls.map((call, index) => toolCallDelta(index, call)), { finishReason: 'tool_calls' }];
}

/** The content of the last tool message in a recorded chat request ('' if none). */
export function lastToolResult(request: RecordedRequest): string {
  const messages = (request.body['messages'] ?? []) as { role: string; content?: unknown }[];
  const tool = messages.filter((message) => message.role === 'tool').at(-1);
  return typeof tool?.content === 'string' ? tool.content : '';
}
