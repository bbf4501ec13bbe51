import { useEffect, useReducer, useRef } from 'react';
import { initialRunState, workflowRunReducer, type WorkflowRunAction, type WorkflowRunState } from './workflow-run-state';

/**
 * The workflow run, followed for the whole window rather than by the Workflows view: a run goes
 * on while the user reads the chat, and a risky step's question (`onApproval`) must reach them.
 */
export function useWorkflowRun(onApproval: () => void): [WorkflowRunState, (action: WorkflowRunAction) => void] {
  const [run, dispatch] = useReducer(workflowRunReducer, initialRunState);
  const listener = useRef(onApproval);
  useEffect(() => {
    listener.current = onApproval;
  });
  useEffect(
    () =>
      window.deskpilot.onEvent((event) => {
        if (event.type !== 'workflow') return;
        dispatch({ type: 'event', event: event.event });
        if (event.event.type === 'approval') listener.current();
      }),
    [],
  );
  return [run, dispatch];
}
