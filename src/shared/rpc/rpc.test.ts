import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeskpilotError } from '../errors';
import { RpcClient } from './client';
import { RpcServer, type Handlers } from './server';
import { defineService, type Timers } from './service';
import type { WireMessage } from './wire';

const SERVICE = defineService({
  methods: {
    add: { params: z.strictObject({ a: z.number(), b: z.number() }), result: z.number() },
    /** Counts to `to`, reporting each step; waits for the test to let it finish. */
    count: { params: z.strictObject({ to: z.int().max(10) }), result: z.string(), progress: z.int() },
    hang: { params: z.strictObject({}), result: z.null() },
    lie: { params: z.strictObject({}), result: z.number() },
  },
  notifications: { poke: z.strictObject({ times: z.int() }) },
  events: { said: z.strictObject({ text: z.string().max(10) }) },
});

/** Timers the test advances by hand. */
class FakeTimers implements Timers {
  private now = 0;
  private readonly queue = new Map<number, { at: number; callback: () => void }>();
  private next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    this.queue.set(this.next, { at: this.now + ms, callback });
    return this.next++;
  }
  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.queue.delete(handle);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, timer] of [...this.queue].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) continue;
      this.queue.delete(id);
      timer.callback();
    }
  }
}

/** A client and a server joined by two in-memory lines that record what crossed them. */
function pair() {
  const timers = new FakeTimers();
  const toServer: WireMessage[] = [];
  const toClient: WireMessage[] = [];
  const problems: string[] = [];
  const serverProblems: string[] = [];
  const pokes: number[] = [];
  const said: string[] = [];
  const signals: AbortSignal[] = [];
  let release: (() => void) | undefined;
  const handlers: Handlers<typeof SERVICE> = {
    methods: {
      add: ({ a, b }) => a + b,
      count: async ({ to }, { progress, signal }) => {
        signals.push(signal);
        for (let step = 1; step <= to; step += 1) progress(step);
        await new Promise<void>((resolve) => (release = resolve));
        progress(99); // after the caller may have gone: never sent once cancelled
        return `counted to ${to}`;
      },
      hang: (_params, { signal }) => {
        signals.push(signal);
        return new Promise(() => undefined);
      },
      // A handler that breaks its own schema: the caller refuses the reply.
      lie: () => 'not a number' as unknown as number,
    },
    notifications: {
      poke: ({ times }) => {
        if (times < 0) throw new Error('negative pokes');
        pokes.push(times);
      },
    },
  };
  const client = new RpcClient(SERVICE, { timers, onProblem: (text) => problems.push(text), events: { said: ({ text }) => said.push(text) } });
  const server = new RpcServer(SERVICE, handlers, {
    send: (message) => {
      toClient.push(message);
      client.receive(message);
    },
    onProblem: (text) => serverProblems.push(text),
  });
  const connect = (): void =>
    client.connect((message) => {
      toServer.push(message);
      server.receive(message);
    });
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
  return { client, server, timers, toServer, toClient, problems, serverProblems, pokes, said, signals, connect, settle, release: () => release?.() };
}

describe('rpc', () => {
  it('answers a request with its typed result and pushes events through their schema', async () => {
    const rpc = pair();
    rpc.connect();
    await expect(rpc.client.request('add', { a: 2, b: 3 })).resolves.toBe(5);
    rpc.server.emit('said', { text: 'hello' });
    rpc.server.emit('said', { text: 'far too long for the schema' });
    expect(rpc.said).toEqual(['hello']);
    expect(rpc.problems).toEqual([expect.stringMatching(/^ignored an invalid message: said: 'text'/)]);
    expect(rpc.problems.join()).not.toContain('far too long');
  });

  it('replies VALIDATION to an unknown method, including names on the prototype', async () => {
    const rpc = pair();
    const replies: WireMessage[] = [];
    const server = new RpcServer(
      SERVICE,
      { methods: { add: () => 0, count: () => '', hang: () => null, lie: () => 0 }, notifications: { poke: () => undefined } },
      {
        send: (message) => replies.push(message),
        onProblem: (text) => rpc.serverProblems.push(text),
      },
    );
    server.receive({ rpc: 'request', id: 1, method: 'launch', params: {} });
    server.receive({ rpc: 'request', id: 2, method: 'toString', params: {} });
    await rpc.settle();
    expect(replies).toEqual([
      { rpc: 'error', id: 1, error: { code: 'VALIDATION', message: 'unknown method launch', isRetryable: false } },
      { rpc: 'error', id: 2, error: { code: 'VALIDATION', message: 'unknown method toString', isRetryable: false } },
    ]);
    // The client never even sends what its own declaration lacks.
    await expect(rpc.client.request('nope' as 'add', { a: 1, b: 1 })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('rejects a bad payload with VALIDATION that names the field, never the value, and keeps serving', async () => {
    const rpc = pair();
    rpc.connect();
    await expect(rpc.client.request('add', { a: 1, b: 'sk-secret' as unknown as number })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/add: 'b'/) as unknown,
    });
    rpc.server.receive('garbage');
    rpc.server.receive({ rpc: 'request', id: 'x', method: 'add', params: {} });
    rpc.client.notify('poke', { times: 'sk-secret' as unknown as number });
    rpc.client.notify('poke', { times: -1 });
    await rpc.settle();
    expect(rpc.serverProblems).toHaveLength(5);
    expect(rpc.serverProblems.slice(0, 4).every((text) => text.startsWith('rejected an invalid request'))).toBe(true);
    expect(rpc.serverProblems[4]).toBe('poke failed: negative pokes');
    expect(JSON.stringify([rpc.serverProblems, rpc.toClient])).not.toContain('sk-secret');
    await expect(rpc.client.request('add', { a: 1, b: 1 })).resolves.toBe(2);
  });

  it('refuses a reply that breaks its own schema with a typed error', async () => {
    const rpc = pair();
    rpc.connect();
    await expect(rpc.client.request('lie', {})).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(rpc.problems).toEqual([expect.stringMatching(/^invalid reply to lie/)]);
  });

  it('cancels through an AbortSignal: STOPPED here, the handler’s signal aborted there, and no late reply', async () => {
    const rpc = pair();
    rpc.connect();
    const controller = new AbortController();
    const counting = rpc.client.request('count', { to: 2 }, { signal: controller.signal });
    await rpc.settle();
    controller.abort();
    await expect(counting).rejects.toMatchObject({ code: 'STOPPED' });
    expect(rpc.toServer.at(-1)).toEqual({ rpc: 'cancel', id: 1 });
    expect(rpc.signals[0]?.aborted).toBe(true);
    rpc.release();
    await rpc.settle();
    expect(rpc.toClient.filter((message) => message.rpc === 'result' || message.rpc === 'error')).toEqual([]);
    expect(rpc.toClient.some((message) => message.rpc === 'progress' && message.value === 99)).toBe(false);
    // A signal aborted before the call: it never leaves.
    const sent = rpc.toServer.length;
    await expect(rpc.client.request('add', { a: 1, b: 1 }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'STOPPED' });
    expect(rpc.toServer).toHaveLength(sent);
  });

  it('times out with TIMEOUT and cancels on the other side; a queued call times out without ever leaving', async () => {
    const rpc = pair();
    const queued = rpc.client.request('hang', {}, { timeoutMs: 100 });
    rpc.timers.advance(100);
    await expect(queued).rejects.toMatchObject({ code: 'TIMEOUT', isRetryable: true });
    rpc.connect();
    expect(rpc.toServer).toEqual([]);
    const hanging = rpc.client.request('hang', {}, { timeoutMs: 100 });
    rpc.timers.advance(99);
    await rpc.settle();
    expect(rpc.signals[0]?.aborted).toBe(false);
    rpc.timers.advance(1);
    await expect(hanging).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(rpc.toServer.map((message) => message.rpc)).toEqual(['request', 'cancel']);
    expect(rpc.signals[0]?.aborted).toBe(true);
  });

  it('rejects every open and queued request with the caller’s typed error when the other side dies, and keeps queued notifications', async () => {
    const rpc = pair();
    rpc.connect();
    const open = rpc.client.request('hang', {});
    rpc.client.disconnect(new Error('placeholder'));
    await expect(open).rejects.toThrow('placeholder');
    const queued = rpc.client.request('add', { a: 1, b: 2 });
    rpc.client.notify('poke', { times: 1 });
    rpc.client.notify('poke', { times: 2 }, { whenDisconnected: 'drop' });
    rpc.client.disconnect(new DeskpilotError('INTERNAL', 'the host stopped', { isRetryable: true }));
    await expect(queued).rejects.toMatchObject({ code: 'INTERNAL', isRetryable: true });
    rpc.connect();
    await rpc.settle();
    expect(rpc.pokes).toEqual([1]);
  });

  it('delivers progress in order, before the reply, and none after it', async () => {
    const rpc = pair();
    rpc.connect();
    const seen: string[] = [];
    const counting = rpc.client.request('count', { to: 3 }, { onProgress: (step) => seen.push(`step ${step}`) });
    await rpc.settle();
    rpc.release();
    const result = await counting;
    seen.push(result);
    expect(seen).toEqual(['step 1', 'step 2', 'step 3', 'step 99', 'counted to 3']);
    rpc.client.receive({ rpc: 'progress', id: 1, value: 100 });
    expect(seen).toHaveLength(5);
    // Progress that breaks its schema is dropped and said, not handed on.
    const again = rpc.client.request('count', { to: 1 }, { onProgress: (step) => seen.push(`step ${step}`) });
    rpc.client.receive({ rpc: 'progress', id: 2, value: 'x' });
    rpc.release();
    await again;
    expect(rpc.problems).toContainEqual(expect.stringMatching(/^ignored invalid progress from count/));
  });

  it('sends queued requests and notifications in order once connected, after what the greeting sends', async () => {
    const rpc = pair();
    const sum = rpc.client.request('add', { a: 1, b: 1 });
    rpc.client.notify('poke', { times: 3 });
    rpc.client.connect(
      (message) => {
        rpc.toServer.push(message);
        rpc.server.receive(message);
      },
      () => rpc.client.notify('poke', { times: 1 }),
    );
    await expect(sum).resolves.toBe(2);
    expect(rpc.toServer.map((message) => ('method' in message ? message.method : message.rpc))).toEqual(['poke', 'add', 'poke']);
    expect(rpc.pokes).toEqual([1, 3]);
  });
});
