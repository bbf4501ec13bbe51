export { Agent, DEFAULT_MAX_ITERATIONS, INTERRUPTED_MARK, STOPPED_MARK, type AgentAnswer, type AgentOptions, type AskTarget } from './agent';
export { buildContextMessage, quoteUiData, DATA_NOT_INSTRUCTIONS, CONTEXT_TREE_BUDGET, type ContextOptions } from './context-message';
export { ActionLedger, unconfirmedNote, type EndStateFindings } from './end-state';
export { keyboardHints } from './keyboard-hints';
export { OwnAppError } from '../tools/target';
export { defaultSystemPrompt } from './system-prompt';
export {
  ResponseCache,
  RESPONSE_CACHE_TTL_MS,
  RESPONSE_CACHE_MAX_ENTRIES,
  conversationKey,
  type CacheScope,
  type CachedAnswer,
  type ResponseCacheOptions,
} from './response-cache';
export { compactHistory, COMPACT_AFTER_MESSAGES, KEEP_RECENT_MESSAGES, type CompactionOptions } from './compaction';
export {
  APPROVAL_POLICIES,
  DEFAULT_APPROVAL_POLICY,
  SafetyGate,
  isApprovalPolicy,
  type ApprovalDecider,
  type ApprovalDecision,
  type ApprovalPolicy,
  type ApprovalRequest,
} from './safety';
