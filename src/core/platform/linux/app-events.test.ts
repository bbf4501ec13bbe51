import { describe, expect, it } from 'vitest';
import { AppEvents } from './app-events';
import type { AtspiClient, TreeEvent } from './client';

function fakeClient(): { client: AtspiClient; emit: (bus: string) => void } {
  const listeners: ((event: TreeEvent) => void)[] = [];
  const client = { onTreeEvent: (listener: (event: TreeEvent) => void) => listeners.push(listener) } as unknown as AtspiClient;
  const emit = (bus: string): void => {
    for (const listener of listeners) listener({ bus, path: '/p', member: 'StateChanged', detail: 'checked', detail1: 1, data: 0 });
  };
  return { client, emit };
}

describe('AppEvents', () => {
  it("wakes a wait at its app's next event, not another app's", async () => {
    const { client, emit } = fakeClient();
    const events = new AppEvents(client);
    let woke = false;
    const waiting = events.next(':1.5', new AbortController().signal).then(() => (woke = true));
    emit(':1.9');
    await Promise.resolve();
    expect(woke).toBe(false);
    emit(':1.5');
    await waiting;
    expect(woke).toBe(true);
    expect(events.pending).toBe(0);
  });

  it('an abort rejects the wait and leaves nothing behind', async () => {
    const { client } = fakeClient();
    const events = new AppEvents(client);
    const controller = new AbortController();
    const waiting = events.next(':1.5', controller.signal);
    expect(events.pending).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect(events.pending).toBe(0);
  });
});
