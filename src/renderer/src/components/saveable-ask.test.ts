import { describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../../shared/transcript';
import { saveableAsk } from './saveable-ask';

const user: ChatEntry = { kind: 'user', id: 'u1', askId: 'a1', text: 'fill it', at: 0 };
const tool: ChatEntry = { kind: 'tool', id: 't1', askId: 'a1', name: 'ui_action', arguments: '{}', status: 'ok', changed: true, logs: [] };
const answer: ChatEntry = { kind: 'assistant', id: 'x1', askId: 'a1', text: 'Done.', streaming: false };

describe('saveableAsk', () => {
  it('offers the last ask once it acted and answered', () => {
    expect(saveableAsk([user, tool, answer])).toBe('a1');
  });

  it('offers nothing while streaming, after a stop or an error, or when nothing changed', () => {
    expect(saveableAsk([user, tool, { ...answer, streaming: true }])).toBeUndefined();
    expect(saveableAsk([user, tool, { ...answer, interrupted: true }])).toBeUndefined();
    expect(saveableAsk([user, { ...tool, changed: false }, answer])).toBeUndefined();
    expect(
      saveableAsk([user, tool, answer, { kind: 'error', id: 'e', askId: 'a1', error: { code: 'INTERNAL', message: '', isRetryable: false }, retryText: '' }]),
    ).toBeUndefined();
    expect(saveableAsk([user, tool, answer, { ...user, id: 'u2', askId: 'a2' }])).toBeUndefined();
    expect(saveableAsk([])).toBeUndefined();
  });
});
