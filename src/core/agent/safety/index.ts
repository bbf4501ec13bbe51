export {
  APPROVAL_POLICIES,
  DEFAULT_APPROVAL_POLICY,
  isApprovalPolicy,
  type ApprovalDecider,
  type ApprovalDecision,
  type ApprovalPolicy,
  type ApprovalRequest,
} from './types';
export { ACTING_TOOLS, CONTENT_READING_TOOLS, RISKY_NAME, riskyCombo, riskyName, readsContent } from './risk';
export { SafetyGate, type AskSafetyState, type GateCall, type GateOutcome } from './gate';
