import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../core/actions/engine';
import { FakePlatform } from '../core/platform/fake/fake-platform';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedStdioTransport } from './bounded-stdio';
import { createMcpServer } from './server';

/** The server on a bounded transport over in-memory pipes, with a small message limit. */
async function serve(maxMessageBytes = 50_000): Promise<{ write: (text: string) => void; next: () => Promise<Record<string, unknown>>; logs: string[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const logs: string[] = [];
  const platform = new FakePlatform();
  const { server } = createMcpServer({
    options: { maxChars: 20_000, readOnly: false, apps: undefined },
    createCore: () => Promise.resolve({ platform, engine: new ActionEngine({ platform }) }),
    log: (line) => logs.push(line),
  });
  await server.connect(new BoundedStdioTransport(stdin, stdout, { maxMessageBytes, log: (line) => logs.push(line) }));
  const lines: string[] = [];
  let waiting: (() => void) | undefined;
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
    waiting?.();
  });
  const next = async (): Promise<Record<string, unknown>> => {
    while (lines.length === 0) await new Promise<void>((resolve) => (waiting = resolve));
    return JSON.parse(lines.shift() as string) as Record<string, unknown>;
  };
  const write = (text: string): void => void stdin.write(text);
  write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
  );
  await next();
  write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return { write, next, logs };
}

const list = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`;

describe('the bounded stdio transport', () => {
  it('answers a message over the limit with -32600 for its id, in pieces as it streams in, and the session goes on', async () => {
    const { write, next, logs } = await serve();
    const huge = JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'ui_find', arguments: { name: 'x'.repeat(120_000) } }, id: 7 });
    // Sent in small pieces, as a pipe delivers it.
    for (let at = 0; at < huge.length; at += 1000) write(huge.slice(at, at + 1000));
    write('\n');
    expect(await next()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: `Invalid Request: the message is ${huge.length} bytes, over the limit of 50000 bytes` },
    });
    expect(logs.join('\n')).toContain(`refused a message of ${huge.length} bytes`);
    write(list(8));
    expect(await next()).toMatchObject({ id: 8, result: { tools: expect.any(Array) } });
  });

  it('a line that is not JSON is -32700; JSON that is no JSON-RPC message, or a batch, is -32600', async () => {
    const { write, next } = await serve();
    write('{"jsonrpc":"2.0","id":1,"method":\n');
    expect(await next()).toMatchObject({ id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } });
    write('{"id":2,"method":"tools/list"}\n');
    expect(await next()).toMatchObject({ id: 2, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response' } });
    write('[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]\n');
    expect(await next()).toMatchObject({ id: null, error: { code: -32600, message: 'Invalid Request: batches are not supported' } });
    write('\n\r\n');
    write(list(4));
    expect(await next()).toMatchObject({ id: 4, result: { tools: expect.any(Array) } });
  });

  it('bad params are -32602 in one line', async () => {
    const { write, next } = await serve();
    write(`${JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: {} } })}\n`);
    const reply = (await next()) as { id: number; error: { code: number; message: string } };
    expect(reply.id).toBe(5);
    expect(reply.error.code).toBe(-32602);
    expect(reply.error.message).toMatch(/^Invalid params: 'params\.name': /);
    expect(reply.error.message).not.toContain('\n');
  });

  it('a reply over the limit becomes an error for its id, not a message the client would drop the connection for', async () => {
    const { write, next, logs } = await serve(2_000);
    write(list(6));
    expect(await next()).toMatchObject({
      id: 6,
      error: { code: -32603, message: expect.stringMatching(/^the reply is \d+ bytes, over the limit of 2000 bytes; ask for less$/) },
    });
    expect(logs.join('\n')).toMatch(/a reply of \d+ bytes was over the 2000-byte limit/);
  });
});

describe('the bounded stdio transport under a flood', () => {
  /** The transport alone, with a message handler that answers nothing until told. */
  async function bare(
    maxInFlight: number,
    stdout = new PassThrough(),
  ): Promise<{ stdin: PassThrough; stdout: PassThrough; transport: BoundedStdioTransport; seen: unknown[] }> {
    const stdin = new PassThrough();
    const transport = new BoundedStdioTransport(stdin, stdout, { maxInFlight });
    const seen: unknown[] = [];
    transport.onmessage = (message) => seen.push((message as { id?: unknown; method?: unknown }).id ?? (message as { method?: unknown }).method);
    await transport.start();
    return { stdin, stdout, transport, seen };
  }
  const call = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ui_tree', arguments: {} } })}\n`;
  const reply = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  it('stops reading while maxInFlight requests are unanswered, and reads one more per reply or cancellation', async () => {
    const { stdin, transport, seen } = await bare(3);
    // All in one chunk: the rest of it is held, not handed on.
    stdin.write(Array.from({ length: 50 }, (_, index) => call(index + 1)).join(''));
    await settle();
    expect(seen).toEqual([1, 2, 3]);
    await transport.send(reply(2));
    await settle();
    expect(seen).toEqual([1, 2, 3, 4]);
    // A reply to an id never read, or a second reply, makes no room.
    await transport.send(reply(2));
    await transport.send(reply(99));
    await settle();
    expect(seen).toHaveLength(4);
    // The SDK sends no reply to a cancelled request: the cancellation itself makes room.
    await transport.send(reply(1));
    await settle();
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    await transport.send(reply(3));
    await settle();
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } })}\n`);
    await settle();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('stops reading while the client does not read stdout, and goes on after it drains', async () => {
    const stdout = new PassThrough({ highWaterMark: 64 });
    const { stdin, transport, seen } = await bare(100, stdout);
    stdin.write(call(1));
    await settle();
    const sent = transport.send({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(200) } });
    stdin.write(call(2) + call(3));
    await settle();
    expect(seen).toEqual([1]);
    stdout.resume();
    await sent;
    await settle();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('a client that writes a flood and closes stdin still gets every request read, in order', async () => {
    const { stdin, transport, seen } = await bare(2);
    const ended = new Promise<void>((resolve) => stdin.once('end', resolve));
    stdin.end(Array.from({ length: 10 }, (_, index) => call(index + 1)).join(''));
    for (let id = 1; id <= 10; id += 1) {
      await settle();
      await transport.send(reply(id));
    }
    await ended;
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
