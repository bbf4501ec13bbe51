import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../shared/agent-events';
import { chatReducer, initialChatState, isRunning, type ChatState } from './chat-state';

const ask: AgentEvent = { type: 'ask', askId: 'ask-1', text: 'hi', pid: 1 };

describe('chatReducer', () => {
  it('skips agent events until the history has loaded (the history already holds them)', () => {
    const before = chatReducer(initialChatState, { type: 'agent', event: ask, now: 1 });
    expect(before).toBe(initialChatState);
    const loaded = chatReducer(before, { type: 'history', entries: [] });
    const after = chatReducer(loaded, { type: 'agent', event: ask, now: 1 });
    expect(after.entries).toHaveLength(1);
  });

  it('is running from ask until done or error', () => {
    let state: ChatState = chatReducer(initialChatState, { type: 'history', entries: [] });
    state = chatReducer(state, { type: 'agent', event: ask, now: 1 });
    expect(isRunning(state)).toBe(true);
    state = chatReducer(state, { type: 'agent', event: { type: 'done', askId: 'ask-1', answer: 'x', stopped: false, reason: 'answered' }, now: 2 });
    expect(isRunning(state)).toBe(false);
  });

  it('treats a history that ends mid-stream as running, so Stop is offered', () => {
    const state = chatReducer(initialChatState, { type: 'history', entries: [{ kind: 'assistant', id: 'a', askId: 'ask-1', text: 'par', streaming: true }] });
    expect(isRunning(state)).toBe(true);
  });

  it('records approvals, notices and clearing', () => {
    let state: ChatState = chatReducer(initialChatState, { type: 'history', entries: [] });
    state = chatReducer(state, { type: 'agent', event: ask, now: 1 });
    state = chatReducer(state, {
      type: 'agent',
      event: { type: 'approval_request', id: 'p1', askId: 'ask-1', callId: 'c1', tool: 'ui_action', summary: 's', reason: 'r' },
      now: 2,
    });
    state = chatReducer(state, { type: 'approved', id: 'p1', decision: 'deny' });
    expect(state.entries[1]).toMatchObject({ kind: 'approval', decision: 'deny' });
    state = chatReducer(state, { type: 'notice', level: 'info', text: 'host restarted', now: 3 });
    expect(state.entries.at(-1)).toMatchObject({ kind: 'notice', text: 'host restarted' });
    state = chatReducer(state, { type: 'cleared' });
    expect(state.entries).toEqual([]);
    expect(isRunning(state)).toBe(false);
  });
});
