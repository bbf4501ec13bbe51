import { describe, expect, it } from 'vitest';
import { AskQueue } from './ask-queue';

describe('AskQueue', () => {
  it('numbers asks and runs them one at a time, in order, even when one fails', async () => {
    const queue = new AskQueue();
    expect([queue.nextId(), queue.nextId()]).toEqual(['ask-1', 'ask-2']);
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = queue.enqueue(async () => {
      order.push('first starts');
      await gate;
      order.push('first ends');
      throw new Error('first failed');
    });
    const second = queue.enqueue(() => (order.push('second'), Promise.resolve('ok')));
    release();
    await expect(first).rejects.toThrow('first failed');
    expect(await second).toBe('ok');
    expect(order).toEqual(['first starts', 'first ends', 'second']);
  });

  it('a stop aborts the running ask with a stop, drops the ones queued before it and runs later ones', async () => {
    const queue = new AskQueue();
    let running: AbortSignal | undefined;
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const isRunning = new Promise<void>((resolve) => (started = resolve));
    const first = queue.enqueue(async (signal) => {
      running = signal;
      started();
      await gate;
      return 'first';
    });
    const queued = queue.enqueue((signal) => Promise.resolve(signal === undefined ? 'dropped' : 'ran'));
    await isRunning;
    queue.stop();
    const later = queue.enqueue((signal) => Promise.resolve(signal === undefined ? 'dropped' : 'ran'));
    release();
    expect(await first).toBe('first');
    expect(running?.aborted).toBe(true);
    expect((running?.reason as { code?: string } | undefined)?.code).toBe('STOPPED');
    expect(await queued).toBe('dropped');
    expect(await later).toBe('ran');
  });
});
