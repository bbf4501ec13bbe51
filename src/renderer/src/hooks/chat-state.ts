import type { AgentEvent } from '../../../shared/agent-events';
import type { ApprovalDecision } from '../../../shared/settings';
import { addNotice, answerApproval, applyAgentEvent, type ChatEntry } from '../../../shared/transcript';

/** The chat window's state: the transcript main also keeps, plus which asks are still running. */
export interface ChatState {
  entries: ChatEntry[];
  /** Asks that have started and not yet sent done or error. */
  openAsks: string[];
  /** Agent events before history() answered are already in its reply, so they are skipped. */
  historyLoaded: boolean;
}

export type ChatAction =
  | { type: 'history'; entries: ChatEntry[] }
  | { type: 'agent'; event: AgentEvent; now: number }
  | { type: 'notice'; level: 'info' | 'error'; text: string; detail?: string; now: number }
  | { type: 'approved'; id: string; decision: ApprovalDecision }
  | { type: 'cleared' };

export const initialChatState: ChatState = { entries: [], openAsks: [], historyLoaded: false };

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'history':
      return { ...state, entries: action.entries, historyLoaded: true };
    case 'agent': {
      if (!state.historyLoaded) return state;
      const { event } = action;
      let openAsks = state.openAsks;
      if (event.type === 'ask') openAsks = [...openAsks, event.askId];
      if (event.type === 'done' || event.type === 'error') openAsks = openAsks.filter((askId) => askId !== event.askId);
      return { ...state, entries: applyAgentEvent(state.entries, event, action.now), openAsks };
    }
    case 'notice':
      return { ...state, entries: addNotice(state.entries, action.level, action.text, action.now, action.detail) };
    case 'approved':
      return { ...state, entries: answerApproval(state.entries, action.id, action.decision) };
    case 'cleared':
      return { ...state, entries: [], openAsks: [] };
  }
}

/** Running while an ask is open, or while the loaded history still shows one streaming. */
export function isRunning(state: ChatState): boolean {
  if (state.openAsks.length > 0) return true;
  const last = state.entries.at(-1);
  return (last?.kind === 'assistant' && last.streaming) || (last?.kind === 'tool' && last.status === 'running');
}
