export {
  APPROVAL_POLICIES,
  DEFAULT_APPROVAL_POLICY,
  isApprovalPolicy,
  type ApprovalDecider,
  type ApprovalDecision,
  type ApprovalPolicy,
  type ApprovalRequest,
} from './types';
export { SafetyGate, type AskSafetyState, type GateCall, type GateOutcome } from './gate';
