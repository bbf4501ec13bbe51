import { describe, expect, it, vi } from 'vitest';
import type { ChatEntry } from '../shared/transcript';
import { Transcript } from './transcript-store';

function setup(limit = 100, initial: ChatEntry[] = []) {
  const writes: ChatEntry[][] = [];
  let currentLimit = limit;
  const transcript = new Transcript({
    store: { get: () => initial, set: (_key, entries) => void writes.push(entries) },
    limit: () => currentLimit,
    now: () => 5,
    writeDelayMs: 1000,
  });
  return { transcript, writes, setLimit: (value: number) => (currentLimit = value) };
}

describe('Transcript', () => {
  it('folds events and writes at most once per delay while an answer streams', () => {
    vi.useFakeTimers();
    const { transcript, writes } = setup();
    transcript.applyEvent({ type: 'ask', askId: 'h-ask-1', text: 'hi', pid: 1 });
    for (const delta of ['a', 'b', 'c']) transcript.applyEvent({ type: 'ai_chunk', askId: 'h-ask-1', delta });
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(1);
    expect(writes[0]?.map((entry) => entry.kind)).toEqual(['user', 'assistant']);
    vi.useRealTimers();
  });

  it('writes at once on flush, and keeps within the history limit', () => {
    const { transcript, writes, setLimit } = setup(2);
    transcript.addNotice('info', 'one');
    transcript.addNotice('info', 'two');
    transcript.addNotice('error', 'three');
    transcript.flush();
    expect(writes.at(-1)?.map((entry) => (entry.kind === 'notice' ? entry.text : entry.kind))).toEqual(['two', 'three']);
    setLimit(1);
    transcript.applyLimit();
    transcript.flush();
    expect(writes.at(-1)).toHaveLength(1);
  });

  it('starts from the stored chat, trimmed to the limit', () => {
    const stored: ChatEntry[] = [1, 2, 3].map((n) => ({ kind: 'notice', id: `n${n}`, level: 'info', text: `t${n}`, at: n }));
    expect(setup(2, stored).transcript.list().map((entry) => entry.id)).toEqual(['n2', 'n3']);
  });
});
