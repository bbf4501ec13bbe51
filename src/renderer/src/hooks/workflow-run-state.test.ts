import { describe, expect, it } from 'vitest';
import { initialRunState, isRunActive, workflowRunReducer, type WorkflowRunState } from './workflow-run-state';
import type { WorkflowEvent } from '../../../shared/workflow-ipc';

function fold(events: WorkflowEvent[], state: WorkflowRunState = initialRunState): WorkflowRunState {
  return events.reduce((current, event) => workflowRunReducer(current, { type: 'event', event }), state);
}

const approval = { kind: 'approval' as const, id: 'run-1-approval-1', askId: 'run-1', tool: 'ui_action', summary: 'click Delete', reason: 'deletes' };

describe('workflowRunReducer', () => {
  it('follows a run from start to report', () => {
    const started = fold([{ type: 'started', runId: 'run-1', name: 'weekly', dryRun: false, steps: 2 }]);
    expect(isRunActive(started)).toBe(true);
    const stepped = fold([{ type: 'step', runId: 'run-1', step: { step: 1, action: 'click', status: 'ok' } }], started);
    expect(stepped.steps).toHaveLength(1);
    const done = fold(
      [
        {
          type: 'finished',
          runId: 'run-1',
          report: {
            workflow: 'weekly',
            status: 'completed',
            ms: 10,
            steps: [
              { step: 1, action: 'click', status: 'ok' },
              { step: 2, action: 'click', status: 'ok' },
            ],
          },
        },
      ],
      stepped,
    );
    expect(isRunActive(done)).toBe(false);
    expect(done.steps).toHaveLength(2);
  });

  it('ignores another run, records answers, and expires an unanswered approval when the run ends', () => {
    let state = fold([
      { type: 'started', runId: 'run-2', name: 'weekly', dryRun: false, steps: 1 },
      { type: 'step', runId: 'run-1', step: { step: 1, action: 'click', status: 'ok' } },
      { type: 'approval', runId: 'run-2', approval: { ...approval, id: 'a1' } },
      { type: 'approval', runId: 'run-2', approval: { ...approval, id: 'a2' } },
    ]);
    expect(state.steps).toEqual([]);
    state = workflowRunReducer(state, { type: 'answered', id: 'a1', decision: 'allow_once' });
    state = fold([{ type: 'failed', runId: 'run-2', error: { code: 'INTERNAL', message: 'x', isRetryable: false } }], state);
    expect(state.approvals.map((entry) => [entry.decision, entry.expired])).toEqual([
      ['allow_once', undefined],
      [undefined, true],
    ]);
  });
});
