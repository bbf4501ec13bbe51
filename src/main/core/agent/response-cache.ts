import type { Clock } from '../clock';
import { fnv1a } from '../ui/ids';

export const RESPONSE_CACHE_TTL_MS = 5 * 60 * 1000;
export const RESPONSE_CACHE_MAX_ENTRIES = 50;

/**
 * Tools that only read. An answer is cacheable only if every tool it used is one of these:
 * repeating an action (ui_action, fill_form, close_window, focus_app, or any plugin tool we
 * cannot vouch for) must run it again, not replay "done".
 */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['get_ui', 'find_elements', 'read_element', 'list_apps', 'wait_for']);

export function isCacheableToolUse(toolNames: Iterable<string>): boolean {
  for (const name of toolNames) if (!READ_ONLY_TOOLS.has(name)) return false;
  return true;
}

/** Case and spacing do not change the question; punctuation at the end does not either. */
export function normalizeQuestion(question: string): string {
  return question.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[\s?.!]+$/, '');
}

/** The key: the normalized question plus a hash of the context message (the UI state the model sees). */
export function responseCacheKey(question: string, context: string): string {
  return `${normalizeQuestion(question)}|${fnv1a(context).toString(36)}:${context.length}`;
}

export interface ResponseCacheOptions {
  clock: Clock;
  ttlMs?: number;
  maxEntries?: number;
}

interface Entry {
  text: string;
  storedAt: number;
}

/** Plain answers by (question, UI state), kept for 5 minutes; the oldest entry goes when it is full. */
export class ResponseCache {
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  /** Insertion order is age order: a re-stored key is deleted and re-inserted. */
  private readonly entries = new Map<string, Entry>();

  constructor(options: ResponseCacheOptions) {
    this.clock = options.clock;
    this.ttlMs = options.ttlMs ?? RESPONSE_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? RESPONSE_CACHE_MAX_ENTRIES;
  }

  get(question: string, context: string): string | undefined {
    const key = responseCacheKey(question, context);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.clock.now() - entry.storedAt >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.text;
  }

  set(question: string, context: string, text: string): void {
    if (this.maxEntries <= 0) return;
    const key = responseCacheKey(question, context);
    this.entries.delete(key);
    this.entries.set(key, { text, storedAt: this.clock.now() });
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
