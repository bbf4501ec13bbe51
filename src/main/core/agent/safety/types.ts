/** How much the agent may do without asking the user. */
export const APPROVAL_POLICIES = ['auto', 'confirm-risky', 'confirm-all'] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = 'confirm-risky';

/** The user's answer: this call only, this kind of tool on this app for the rest of the conversation, or no. */
export type ApprovalDecision = 'allow_once' | 'allow_app' | 'deny';

/** One question to the user about one tool call. Plain JSON: it travels as an event too. */
export interface ApprovalRequest {
  /** Unique within the conversation. */
  id: string;
  askId: string;
  callId: string;
  tool: string;
  /** The arguments, shortened for a prompt line. */
  summary: string;
  /** Why it is asked, for the user: "presses ctrl+q (quits or closes)". */
  reason: string;
  /** The app it acts on, when known. */
  pid?: number;
  app?: string;
}

/** Decides one request; the UI or the CLI answers it. */
export type ApprovalDecider = (request: ApprovalRequest) => Promise<ApprovalDecision>;

export function isApprovalPolicy(value: unknown): value is ApprovalPolicy {
  return typeof value === 'string' && (APPROVAL_POLICIES as readonly string[]).includes(value);
}
