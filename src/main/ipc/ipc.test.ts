import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { NotSettableError } from '../../shared/errors';

const handlers = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
vi.mock('electron', () => ({
  ipcMain: { handle: (channel: string, handler: (event: unknown, payload: unknown) => Promise<unknown>) => handlers.set(channel, handler) },
}));

const { handle } = await import('./ipc');
const trusted = { sender: 'ours' };

beforeEach(() => {
  handlers.clear();
  handle(
    'test:echo',
    z.object({ text: z.string() }),
    (event) => (event as unknown) === trusted,
    ({ text }) => text.toUpperCase(),
  );
  handle(
    'test:fail',
    z.undefined(),
    () => true,
    () => {
      throw new NotSettableError();
    },
  );
});

function call(channel: string, event: unknown, payload: unknown): Promise<unknown> {
  const handler = handlers.get(channel);
  if (handler === undefined) throw new Error(`no handler for ${channel}`);
  return handler(event, payload);
}

describe('handle', () => {
  it('answers a valid payload from a trusted sender', async () => {
    expect(await call('test:echo', trusted, { text: 'hi' })).toEqual({ ok: true, value: 'HI' });
  });

  it('refuses an unknown sender without running the handler', async () => {
    expect(await call('test:echo', { sender: 'evil' }, { text: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', message: 'test:echo: refused a message from an unknown sender' },
    });
  });

  it('refuses a payload that fails its schema', async () => {
    const reply = (await call('test:echo', trusted, { text: 42 })) as { ok: false; error: { code: string; message: string } };
    expect(reply).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    // The field is named so the UI can point at it; the bad value itself is never echoed.
    expect(reply.error.message).toMatch(/^test:echo: invalid payload: 'text': /);
    expect(reply.error.message).not.toContain('42');
  });

  it('returns handler errors typed, not thrown', async () => {
    expect(await call('test:fail', trusted, undefined)).toEqual({
      ok: false,
      error: { code: 'NOT_SETTABLE', message: "element does not support set_value; try 'type'", isRetryable: false },
    });
  });
});
