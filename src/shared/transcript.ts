/**
 * The chat as the user sees it, folded from AgentEvents. Main keeps and persists one copy
 * (so a reloaded window or a restarted host loses nothing), the renderer folds the same events
 * live; both use the same pure reducer, so the two can never disagree.
 */
import type { EndStateCheck } from './agent-events';
import type { SerializedError } from './errors';
import type { ApprovalDecision } from './settings';

export type ChatEntry =
  | { kind: 'user'; id: string; askId: string; text: string; at: number }
  | {
      kind: 'assistant';
      id: string;
      askId: string;
      text: string;
      /** Still receiving chunks. */
      streaming: boolean;
      /** The stream was cut or the user stopped it; `text` is what arrived. */
      interrupted?: boolean;
      cached?: boolean;
      check?: EndStateCheck;
    }
  | {
      kind: 'tool';
      /** The tool call id. */
      id: string;
      askId: string;
      name: string;
      /** The raw JSON arguments the model sent. */
      arguments: string;
      status: 'running' | 'ok' | 'failed';
      message?: string;
      /** From a ui_action result: which path ran and whether the UI changed. */
      method?: string;
      changed?: boolean;
      logs: string[];
      data?: unknown;
    }
  | {
      kind: 'approval';
      /** The approval_request id, which approve() answers. */
      id: string;
      askId: string;
      tool: string;
      summary: string;
      reason: string;
      app?: string;
      decision?: ApprovalDecision;
    }
  /** `retryText` is the question to send again. */
  | { kind: 'error'; id: string; askId: string; error: SerializedError; retryText: string }
  | { kind: 'notice'; id: string; level: 'info' | 'error'; text: string; at: number };

export type ChatEntryKind = ChatEntry['kind'];
