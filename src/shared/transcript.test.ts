import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-events';
import { addNotice, answerApproval, applyAgentEvent, closeOpenAsks, foldAgentEvents, limitEntries, type ChatEntry } from './transcript';

const NOW = 1_700_000_000_000;

function uiActionData(changed: boolean) {
  return {
    success: true,
    method: 'accessibility',
    nodeBefore: { id: 'k3', role: 'button', name: 'Save', states: { enabled: true, focused: false }, actions: ['click'] },
    nodeAfter: null,
    changed,
    changes: changed ? ['focused: false → true'] : [],
  };
}

/** A two-iteration ask: text + a click, then the answer, then the end-state check. */
const MULTI: AgentEvent[] = [
  { type: 'ask', askId: 'ask-1', text: 'save it', pid: 7 },
  { type: 'ai_request', askId: 'ask-1', iteration: 1, messageCount: 3 },
  { type: 'ai_chunk', askId: 'ask-1', delta: 'I will ' },
  { type: 'ai_chunk', askId: 'ask-1', delta: 'click Save.' },
  {
    type: 'ai_response',
    askId: 'ask-1',
    text: 'I will click Save.',
    toolCalls: [{ id: 'c1', name: 'ui_action', arguments: '{"action":"click","id":"k3"}' }],
    finishReason: 'tool_calls',
  },
  { type: 'tool_call', askId: 'ask-1', callId: 'c1', name: 'ui_action', arguments: '{"action":"click","id":"k3"}' },
  { type: 'tool_log', askId: 'ask-1', callId: 'c1', text: 'resolved k3' },
  { type: 'tool_result', askId: 'ask-1', callId: 'c1', name: 'ui_action', success: true, message: 'click done via accessibility', data: uiActionData(true) },
  { type: 'ai_request', askId: 'ask-1', iteration: 2, messageCount: 5 },
  { type: 'ai_chunk', askId: 'ask-1', delta: 'Saved.' },
  { type: 'ai_response', askId: 'ask-1', text: 'Saved.', toolCalls: [], finishReason: 'stop' },
  { type: 'ai_chunk', askId: 'ask-1', delta: '\n\nI could not confirm it.' },
  {
    type: 'done',
    askId: 'ask-1',
    answer: 'Saved.\n\nI could not confirm it.',
    stopped: false,
    reason: 'answered',
    check: { confirmed: false, notes: ['title unchanged'] },
  },
];

describe('applyAgentEvent', () => {
  it('folds a multi-iteration ask into question, answer, tool card, answer', () => {
    const entries = foldAgentEvents(MULTI, NOW);
    expect(entries.map((entry) => `${entry.kind}:${entry.id}`)).toEqual(['user:ask-1', 'assistant:ask-1:answer', 'tool:c1', 'assistant:ask-1:answer#2']);
    expect(entries[0]).toEqual({ kind: 'user', id: 'ask-1', askId: 'ask-1', text: 'save it', at: NOW });
    expect(entries[1]).toMatchObject({ text: 'I will click Save.', streaming: false });
    expect(entries[2]).toEqual({
      kind: 'tool',
      id: 'c1',
      askId: 'ask-1',
      name: 'ui_action',
      arguments: '{"action":"click","id":"k3"}',
      status: 'ok',
      message: 'click done via accessibility',
      method: 'accessibility',
      changed: true,
      target: 'Save button',
      logs: ['resolved k3'],
    });
    expect(entries[3]).toEqual({
      kind: 'assistant',
      id: 'ask-1:answer#2',
      askId: 'ask-1',
      text: 'Saved.\n\nI could not confirm it.',
      streaming: false,
      check: { confirmed: false, notes: ['title unchanged'] },
    });
  });

  it('streams: the entry is open while chunks arrive and closed by ai_response', () => {
    const partial = foldAgentEvents(MULTI.slice(0, 4), NOW);
    expect(partial.at(-1)).toMatchObject({ kind: 'assistant', text: 'I will click Save.', streaming: true });
    const responded = foldAgentEvents(MULTI.slice(0, 5), NOW);
    expect(responded.at(-1)).toMatchObject({ kind: 'assistant', streaming: false });
  });

  it('is deterministic: the same events give equal entries every time', () => {
    const first = foldAgentEvents(MULTI, NOW);
    const second = foldAgentEvents(MULTI, NOW);
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('never mutates its input and keeps untouched entries by identity', () => {
    const before = foldAgentEvents(MULTI.slice(0, 3), NOW);
    const snapshot = structuredClone(before);
    const after = applyAgentEvent(before, { type: 'ai_chunk', askId: 'ask-1', delta: 'more' }, NOW + 1);
    expect(before).toEqual(snapshot);
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
  });

  it('a stop keeps the partial answer, marks it interrupted and fails the running tool', () => {
    const entries = foldAgentEvents(
      [
        ...MULTI.slice(0, 6),
        { type: 'approval_request', id: 'ap1', askId: 'ask-1', callId: 'c1', tool: 'ui_action', summary: 'click Save', reason: 'risky', app: 'gedit' },
        { type: 'done', askId: 'ask-1', answer: '', stopped: true, reason: 'stopped' },
      ],
      NOW,
    );
    expect(entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'tool', 'approval', 'assistant']);
    expect(entries[1]).toMatchObject({ text: 'I will click Save.', streaming: false });
    expect(entries[2]).toMatchObject({ status: 'failed', message: 'stopped before it finished' });
    expect(entries[3]).toMatchObject({ kind: 'approval', expired: true });
    expect(entries[4]).toMatchObject({ kind: 'assistant', text: '', streaming: false, interrupted: true });
  });

  it('a stop mid-stream marks the streaming answer itself', () => {
    const entries = foldAgentEvents([...MULTI.slice(0, 3), { type: 'done', askId: 'ask-1', answer: '', stopped: true, reason: 'stopped' }], NOW);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ text: 'I will ', streaming: false, interrupted: true });
  });

  it('an error mid-stream keeps the partial answer and offers the question again', () => {
    const error = { code: 'PROVIDER_CONNECTION' as const, message: 'connection reset', isRetryable: true };
    const entries = foldAgentEvents([...MULTI.slice(0, 4), { type: 'error', askId: 'ask-1', error }], NOW);
    expect(entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'error']);
    expect(entries[1]).toMatchObject({ text: 'I will click Save.', streaming: false, interrupted: true });
    expect(entries[2]).toEqual({ kind: 'error', id: 'ask-1:error', askId: 'ask-1', error, retryText: 'save it' });
  });

  it('keeps cached answers marked and writes the iteration-limit answer that comes without chunks', () => {
    const cached = foldAgentEvents(
      [
        { type: 'ask', askId: 'ask-1', text: 'what is this?', pid: 1 },
        { type: 'ai_chunk', askId: 'ask-1', delta: 'A form.' },
        { type: 'ai_response', askId: 'ask-1', text: 'A form.', toolCalls: [], finishReason: 'stop' },
        { type: 'done', askId: 'ask-1', answer: 'A form.', stopped: false, reason: 'answered', cached: true },
      ],
      NOW,
    );
    expect(cached[1]).toMatchObject({ text: 'A form.', cached: true, streaming: false });
    const limited = foldAgentEvents(
      [...MULTI.slice(0, 8), { type: 'done', askId: 'ask-1', answer: 'I stopped after 10 tool steps.', stopped: false, reason: 'iteration_limit' }],
      NOW,
    );
    expect(limited.at(-1)).toMatchObject({ kind: 'assistant', text: 'I stopped after 10 tool steps.' });
  });

  it('a response without chunks (no streaming) still becomes an answer', () => {
    const entries = foldAgentEvents(
      [
        { type: 'ask', askId: 'ask-1', text: 'hi', pid: 1 },
        { type: 'ai_response', askId: 'ask-1', text: 'Hello.', toolCalls: [], finishReason: 'stop' },
        { type: 'done', askId: 'ask-1', answer: 'Hello.', stopped: false, reason: 'answered' },
      ],
      NOW,
    );
    expect(entries.map((entry) => entry.kind)).toEqual(['user', 'assistant']);
  });

  it('keeps a queued ask after the running one finishes its entries', () => {
    const entries = foldAgentEvents(
      [
        { type: 'ask', askId: 'ask-1', text: 'first', pid: 1 },
        { type: 'ask', askId: 'ask-2', text: 'second', pid: 1 },
        { type: 'ai_chunk', askId: 'ask-1', delta: 'one' },
        { type: 'tool_call', askId: 'ask-1', callId: 'c1', name: 'ui_tree', arguments: '{}' },
        { type: 'tool_result', askId: 'ask-1', callId: 'c1', name: 'ui_tree', success: true, message: 'tree' },
        { type: 'ai_chunk', askId: 'ask-1', delta: 'done' },
        { type: 'done', askId: 'ask-1', answer: 'done', stopped: false, reason: 'answered' },
        { type: 'ai_chunk', askId: 'ask-2', delta: 'two' },
      ],
      NOW,
    );
    expect(entries.map((entry) => `${entry.kind}:${entry.kind === 'notice' ? '' : entry.askId}`)).toEqual([
      'user:ask-1',
      'assistant:ask-1',
      'tool:ask-1',
      'assistant:ask-1',
      'user:ask-2',
      'assistant:ask-2',
    ]);
  });

  it('an ask id reused by a new session (restarted host) starts a new ask with unique ids', () => {
    const history = foldAgentEvents(MULTI, NOW);
    const entries = foldAgentEvents(MULTI, NOW + 10, history);
    expect(entries).toHaveLength(8);
    expect(new Set(entries.map((entry) => `${entry.kind}:${entry.id}`)).size).toBe(8);
    expect(entries.slice(4).map((entry) => entry.id)).toEqual(['ask-1#2', 'ask-1:answer#3', 'c1#2', 'ask-1:answer#4']);
    // The old ask is untouched by the new one's events.
    expect(entries.slice(0, 4)).toEqual(history);
    expect(entries[6]).toMatchObject({ status: 'ok', logs: ['resolved k3'] });
  });

  it('only copies method/changed/target out of ui_action-shaped data and never keeps the data', () => {
    const entries = foldAgentEvents(
      [
        { type: 'ask', askId: 'ask-1', text: 'x', pid: 1 },
        { type: 'tool_call', askId: 'ask-1', callId: 'c1', name: 'ui_tree', arguments: '{}' },
        { type: 'tool_result', askId: 'ask-1', callId: 'c1', name: 'ui_tree', success: false, message: 'no app', data: { tree: [1, 2, 3] } },
      ],
      NOW,
    );
    expect(entries[1]).toEqual({ kind: 'tool', id: 'c1', askId: 'ask-1', name: 'ui_tree', arguments: '{}', status: 'failed', message: 'no app', logs: [] });
  });

  it('ignores events for tools it does not know', () => {
    const start = foldAgentEvents(MULTI.slice(0, 1), NOW);
    const next = applyAgentEvent(start, { type: 'tool_log', askId: 'ask-1', callId: '', text: 'stray' }, NOW);
    expect(next).toEqual(start);
  });
});

describe('addNotice, answerApproval, limitEntries', () => {
  it('adds notices with unique ids', () => {
    const entries = addNotice(addNotice([], 'error', 'the automation host restarted', NOW), 'info', 'again', NOW);
    expect(entries.map((entry) => entry.id)).toEqual([`notice-${NOW}`, `notice-${NOW}#2`]);
    expect(entries[0]).toEqual({ kind: 'notice', id: `notice-${NOW}`, level: 'error', text: 'the automation host restarted', at: NOW });
  });

  it('records a decision once', () => {
    const entries = foldAgentEvents(
      [
        { type: 'ask', askId: 'ask-1', text: 'x', pid: 1 },
        { type: 'approval_request', id: 'ap1', askId: 'ask-1', callId: 'c1', tool: 'ui_action', summary: 'click Delete', reason: 'deletes' },
      ],
      NOW,
    );
    const answered = answerApproval(entries, 'ap1', 'allow_app');
    expect(answered[1]).toMatchObject({ kind: 'approval', decision: 'allow_app' });
    expect(answerApproval(answered, 'ap1', 'deny')[1]).toMatchObject({ decision: 'allow_app' });
    expect(entries[1]).not.toHaveProperty('decision');
  });

  it('leaves an expired approval unanswered: the ask it belonged to is over', () => {
    const expired = foldAgentEvents(
      [
        { type: 'ask', askId: 'ask-1', text: 'x', pid: 1 },
        { type: 'approval_request', id: 'ap1', askId: 'ask-1', callId: 'c1', tool: 'ui_action', summary: 'click Delete', reason: 'deletes' },
        { type: 'done', askId: 'ask-1', answer: '', stopped: true, reason: 'stopped' },
      ],
      NOW,
    );
    expect(answerApproval(expired, 'ap1', 'allow_once')).toEqual(expired);
  });

  it('keeps the newest entries and brings the cut ask its question', () => {
    const entries = foldAgentEvents(MULTI, NOW);
    expect(limitEntries(entries, 10)).toEqual(entries);
    expect(limitEntries(entries, 0)).toEqual([]);
    const limited = limitEntries(entries, 3);
    expect(limited.map((entry) => entry.id)).toEqual(['ask-1', 'c1', 'ask-1:answer#2']);
    const withNotice: ChatEntry[] = addNotice(entries, 'info', 'n', NOW);
    expect(limitEntries(withNotice, 1).map((entry) => entry.kind)).toEqual(['notice']);
  });
});

describe('a cleared ask', () => {
  it('leaves nothing behind: its later events are ignored, so a stop after a clear adds no Stopped bubble', () => {
    const cleared: ChatEntry[] = [];
    const after = foldAgentEvents(
      [
        { type: 'ai_chunk', askId: 'ask-1', delta: 'late' },
        { type: 'tool_call', askId: 'ask-1', callId: 'c1', name: 'ui_action', arguments: '{}' },
        { type: 'done', askId: 'ask-1', answer: '', stopped: true, reason: 'stopped' },
        { type: 'error', askId: 'ask-1', error: { code: 'INTERNAL', message: 'host died', isRetryable: true } },
      ],
      NOW,
      cleared,
    );
    expect(after).toEqual([]);
    // A new ask after the clear still folds as usual.
    expect(
      foldAgentEvents(
        [
          { type: 'ask', askId: 'ask-2', text: 'q', pid: 1 },
          { type: 'ai_chunk', askId: 'ask-2', delta: 'a' },
        ],
        NOW,
      ),
    ).toHaveLength(2);
  });
});

describe('closeOpenAsks', () => {
  it('ends what a saved mid-ask chat left open: streaming text, running tools, unanswered approvals', () => {
    const saved = foldAgentEvents(
      [
        { type: 'ask', askId: 'ask-1', text: 'save it', pid: 7 },
        { type: 'tool_call', askId: 'ask-1', callId: 'c1', name: 'ui_action', arguments: '{}' },
        { type: 'approval_request', askId: 'ask-1', id: 'p1', callId: 'c1', tool: 'ui_action', summary: 'click Save', reason: 'risky' },
        { type: 'ai_chunk', askId: 'ask-1', delta: 'Saving' },
      ],
      NOW,
    );
    const closed = closeOpenAsks(saved);
    expect(closed.find((entry) => entry.kind === 'assistant')).toMatchObject({ text: 'Saving', streaming: false, interrupted: true });
    expect(closed.find((entry) => entry.kind === 'tool')).toMatchObject({ status: 'failed' });
    expect(closed.find((entry) => entry.kind === 'approval')).toMatchObject({ expired: true });
    // A finished ask is left exactly as it was.
    const finished = foldAgentEvents(MULTI, NOW);
    expect(closeOpenAsks(finished)).toEqual(finished);
  });
});
