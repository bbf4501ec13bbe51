export { Agent, DEFAULT_MAX_ITERATIONS, INTERRUPTED_MARK, STOPPED_MARK, type AgentAnswer, type AgentOptions, type AskTarget } from './agent';
export { buildContextMessage, quoteUiData, DATA_NOT_INSTRUCTIONS, CONTEXT_TREE_BUDGET } from './context-message';
export { defaultSystemPrompt } from './system-prompt';
