/**
 * The provider's public shapes. Messages and tools reuse the `openai` SDK's wire types,
 * because every preset speaks that same Chat Completions dialect and a second copy of
 * the schema would only drift.
 */
import type { ChatCompletionMessageParam, ChatCompletionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';

export type ProviderMessage = ChatCompletionMessageParam;
export type ProviderTool = ChatCompletionTool;

export interface ProviderRequest {
  messages: ProviderMessage[];
  tools?: ProviderTool[];
  toolChoice?: ChatCompletionToolChoiceOption;
  /** Overrides the configured model for this one call (the summarizer may want a cheaper one). */
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

export interface ProviderUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** One part of a model stream: a tagged union, so consumers switch on `type`. */
export type StreamPart =
  | { type: 'text'; delta: string }
  /** Emitted once the call is complete; `arguments` is the raw string, which the caller validates. */
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'finish'; reason: string; usage?: ProviderUsage };

export interface Provider {
  /** Ends quietly, without a finish part, when `signal` aborts: cancellation is not an error. */
  stream(request: ProviderRequest, signal?: AbortSignal): AsyncIterable<StreamPart>;
  /**
   * Which model the next request goes to (endpoint and model name), so an answer cached from
   * one model is not replayed after the user switches to another. Throws like stream() when
   * nothing is configured.
   */
  identity?(): Promise<string>;
}
