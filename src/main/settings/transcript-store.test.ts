import { describe, expect, it, vi } from 'vitest';
import type { ChatEntry } from '../../shared/transcript';
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
    expect(
      setup(2, stored)
        .transcript.list()
        .map((entry) => entry.id),
    ).toEqual(['n2', 'n3']);
  });

  it('ends the asks a chat saved mid-ask left open, so nothing streams, runs or waits for an answer after a restart', () => {
    const stored: ChatEntry[] = [
      { kind: 'user', id: 'a1', askId: 'a1', text: 'save it', at: 1 },
      { kind: 'tool', id: 'c1', askId: 'a1', name: 'ui_action', arguments: '{}', status: 'running', logs: [] },
      { kind: 'approval', id: 'p1', askId: 'a1', tool: 'ui_action', summary: 'click Save', reason: 'risky' },
      { kind: 'assistant', id: 'a1:answer', askId: 'a1', text: 'Sav', streaming: true },
    ];
    const [, tool, approval, answer] = setup(100, stored).transcript.list();
    expect(tool).toMatchObject({ status: 'failed' });
    expect(approval).toMatchObject({ expired: true });
    expect(answer).toMatchObject({ text: 'Sav', streaming: false, interrupted: true });
  });

  it('starts empty from a history file whose entries are not a list', () => {
    for (const broken of [null, 'text', { 0: 'x' }, 42]) {
      expect(setup(100, broken as unknown as ChatEntry[]).transcript.list()).toEqual([]);
    }
    expect(setup(100, [null, 'x', { kind: 'notice', id: 'n', level: 'info', text: 't', at: 1 }] as unknown as ChatEntry[]).transcript.list()).toHaveLength(1);
  });
});
