import { createHash } from 'node:crypto';
import type { Clock } from '../clock';
import { isReadOnly, type Tool } from '../tools/types';
import type { ProviderMessage } from './provider/types';

export const RESPONSE_CACHE_TTL_MS = 5 * 60 * 1000;
export const RESPONSE_CACHE_MAX_ENTRIES = 50;

/**
 * An answer is cacheable only if every tool it used declares `effects: 'read'`: repeating an
 * action (or a plugin tool that declares nothing, which counts as acting) must run it again,
 * not replay "done".
 */
export function isCacheableToolUse(tools: Iterable<Pick<Tool, 'effects'> | undefined>): boolean {
  for (const tool of tools) if (!isReadOnly(tool)) return false;
  return true;
}

/** Case and spacing do not change the question; punctuation at the end does not either. */
export function normalizeQuestion(question: string): string {
  return question
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?.!]+$/, '');
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * A digest of the conversation before an ask. The same words mean different things after
 * different turns ("and now?", "what about the second one?"), so an answer is only replayed
 * after the same conversation.
 */
export function conversationKey(messages: readonly ProviderMessage[]): string {
  if (messages.length === 0) return '';
  return digest(JSON.stringify(messages));
}

/** What else an answer depends on besides the question and the UI state. */
export interface CacheScope {
  /** conversationKey() of the history before the ask. */
  conversation?: string;
  /** Which model answered (Provider.identity()): another model's answer is not this one's. */
  model?: string;
  /** The answer's language: the same question under a fixed other language wants another answer. */
  language?: string;
}

/**
 * The key: the normalized question, a digest of the context message (the UI state the model
 * sees), the conversation's digest and the model. sha256 like the conversation: a 32-bit hash
 * of a whole UI tree collides often enough to replay the answer for another screen.
 */
export function responseCacheKey(question: string, context: string, scope: CacheScope = {}): string {
  return JSON.stringify([normalizeQuestion(question), digest(context), scope.conversation ?? '', scope.model ?? '', scope.language ?? '']);
}

export interface ResponseCacheOptions {
  clock: Clock;
  ttlMs?: number;
  maxEntries?: number;
}

export interface CachedAnswer {
  text: string;
  storedAt: number;
}

/** Plain answers by (question, UI state, conversation, model), kept for 5 minutes; the oldest entry goes when it is full. */
export class ResponseCache {
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  /** Insertion order is age order: a re-stored key is deleted and re-inserted. */
  private readonly entries = new Map<string, CachedAnswer>();

  constructor(options: ResponseCacheOptions) {
    this.clock = options.clock;
    this.ttlMs = options.ttlMs ?? RESPONSE_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? RESPONSE_CACHE_MAX_ENTRIES;
  }

  get(question: string, context: string, scope: CacheScope = {}): string | undefined {
    return this.entry(question, context, scope)?.text;
  }

  /** The answer with its age, so a copy made from it (a repeat) expires when the original does. */
  entry(question: string, context: string, scope: CacheScope = {}): CachedAnswer | undefined {
    const key = responseCacheKey(question, context, scope);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.clock.now() - entry.storedAt >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(question: string, context: string, text: string, scope: CacheScope = {}, storedAt = this.clock.now()): void {
    if (this.maxEntries <= 0) return;
    const key = responseCacheKey(question, context, scope);
    this.entries.delete(key);
    this.entries.set(key, { text, storedAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
