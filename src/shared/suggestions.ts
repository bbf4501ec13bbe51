/**
 * What the empty chat offers to ask, chosen from what the target app shows. The host picks the
 * kinds; the window says each in the user's language (`chat.suggest.<kind>`).
 */
export const SUGGESTION_KINDS = ['whatCanIDo', 'summarize', 'fillForm', 'readDocument', 'changeSettings', 'findItem'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];
