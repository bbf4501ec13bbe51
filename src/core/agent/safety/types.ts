import { APPROVAL_POLICIES, type ApprovalDecision, type ApprovalPolicy } from '../../../shared/settings';
import type { ActionPlan, RiskReason } from '../../../shared/risk';

// The policy and decision names are shared with the settings view and the approve channel.
export { APPROVAL_POLICIES, type ApprovalDecision, type ApprovalPolicy };
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = 'confirm-risky';

/** One question to the user about one tool call. Plain JSON: it travels as an event too. */
export interface ApprovalRequest {
  /** Unique within the conversation. */
  id: string;
  askId: string;
  callId: string;
  tool: string;
  /** The arguments, shortened for a prompt line. */
  summary: string;
  /** Why it is asked, in English (logs, the model): "presses ctrl+q (quits or closes)". */
  reason: string;
  /** The same as a code, which each program says in its user's language. */
  why: RiskReason;
  /** What will happen, in the app's names ("click" on "Delete"), for the question put to the user. */
  plan: ActionPlan;
  /** The app it acts on, when known. */
  pid?: number;
  app?: string;
  /** A tool of one of the user's MCP servers: which server, and the tool's own name there. */
  external?: { server: string; tool: string };
}

/** Decides one request; the UI or the CLI answers it. */
export type ApprovalDecider = (request: ApprovalRequest) => Promise<ApprovalDecision>;

export function isApprovalPolicy(value: unknown): value is ApprovalPolicy {
  return typeof value === 'string' && (APPROVAL_POLICIES as readonly string[]).includes(value);
}
