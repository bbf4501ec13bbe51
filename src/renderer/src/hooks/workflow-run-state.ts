import type { SerializedError } from '../../../shared/errors';
import type { ChatEntry } from '../../../shared/transcript';
import type { WorkflowEvent, WorkflowRunInfo, WorkflowStepInfo } from '../../../shared/workflow-ipc';

export type ApprovalEntry = Extract<ChatEntry, { kind: 'approval' }>;

/** The Workflows view's run: what it shows while a workflow replays and after. */
export interface WorkflowRunState {
  runId: string | undefined;
  name: string;
  dryRun: boolean;
  total: number;
  steps: WorkflowStepInfo[];
  /** Risky steps asked about, oldest first; an answered one keeps its decision. */
  approvals: ApprovalEntry[];
  report: WorkflowRunInfo | undefined;
  error: SerializedError | undefined;
  stopped: boolean;
}

export const initialRunState: WorkflowRunState = {
  runId: undefined,
  name: '',
  dryRun: false,
  total: 0,
  steps: [],
  approvals: [],
  report: undefined,
  error: undefined,
  stopped: false,
};

export function isRunActive(state: WorkflowRunState): boolean {
  return state.runId !== undefined && state.report === undefined && state.error === undefined && !state.stopped;
}

export type WorkflowRunAction = { type: 'event'; event: WorkflowEvent } | { type: 'answered'; id: string; decision: ApprovalEntry['decision'] };

/** Folds a run's events; events of another run than the one shown are ignored (a stale run's last words). */
export function workflowRunReducer(state: WorkflowRunState, action: WorkflowRunAction): WorkflowRunState {
  if (action.type === 'answered') {
    return {
      ...state,
      approvals: state.approvals.map((entry) => (entry.id === action.id && action.decision !== undefined ? { ...entry, decision: action.decision } : entry)),
    };
  }
  const { event } = action;
  if (event.type === 'started') return { ...initialRunState, runId: event.runId, name: event.name, dryRun: event.dryRun, total: event.steps };
  if (event.runId !== state.runId) return state;
  switch (event.type) {
    case 'step':
      return { ...state, steps: [...state.steps.filter((step) => step.step !== event.step.step), event.step] };
    case 'approval':
      return { ...state, approvals: [...state.approvals, event.approval] };
    case 'finished':
      // The report holds every step, the ones that never ran included; an unanswered question can no longer be answered.
      return { ...state, report: event.report, steps: event.report.steps, approvals: expire(state.approvals) };
    case 'failed':
      return { ...state, error: event.error, approvals: expire(state.approvals) };
    case 'stopped':
      return { ...state, stopped: true, approvals: expire(state.approvals) };
  }
}

function expire(approvals: ApprovalEntry[]): ApprovalEntry[] {
  return approvals.map((entry) => (entry.decision === undefined ? { ...entry, expired: true } : entry));
}
