import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { builtinTools } from '../tools/builtin';
import { RESPONSE_CACHE_TTL_MS, ResponseCache, conversationKey, isCacheableToolUse, normalizeQuestion, responseCacheKey } from './response-cache';

describe('ResponseCache', () => {
  it('normalizes case, spacing and trailing punctuation of the question', () => {
    expect(normalizeQuestion('  What  is HERE? ')).toBe('what is here');
    expect(responseCacheKey('What is here?', 'ctx')).toBe(responseCacheKey('what is here', 'ctx'));
    expect(responseCacheKey('what is here', 'ctx A')).not.toBe(responseCacheKey('what is here', 'ctx B'));
  });

  it('keys on the conversation before the ask too', () => {
    const before = [
      { role: 'user' as const, content: 'what is the volume?' },
      { role: 'assistant' as const, content: '50' },
    ];
    const other = [
      { role: 'user' as const, content: 'what is the title?' },
      { role: 'assistant' as const, content: 'Notes' },
    ];
    expect(conversationKey([])).toBe('');
    expect(conversationKey(before)).toBe(conversationKey(structuredClone(before)));
    expect(conversationKey(before)).not.toBe(conversationKey(other));
    expect(responseCacheKey('and now?', 'ctx', { conversation: conversationKey(before) })).not.toBe(
      responseCacheKey('and now?', 'ctx', { conversation: conversationKey(other) }),
    );
    const cache = new ResponseCache({ clock: new FakeClock() });
    cache.set('and now?', 'ctx', 'still 50', { conversation: conversationKey(before) });
    expect(cache.get('and now?', 'ctx', { conversation: conversationKey(before) })).toBe('still 50');
    expect(cache.get('and now?', 'ctx', { conversation: conversationKey(other) })).toBeUndefined();
    expect(cache.get('and now?', 'ctx')).toBeUndefined();
  });

  it('keys on the model, and on a sha256 digest of the whole context', () => {
    const cache = new ResponseCache({ clock: new FakeClock() });
    cache.set('what is here', 'ctx', 'from model A', { model: 'https://a/v1 model-a' });
    expect(cache.get('what is here', 'ctx', { model: 'https://a/v1 model-a' })).toBe('from model A');
    expect(cache.get('what is here', 'ctx', { model: 'https://a/v1 model-b' })).toBeUndefined();
    expect(cache.get('what is here', 'ctx')).toBeUndefined();
    const key = responseCacheKey('q', 'a context');
    expect(key).toContain(createHash('sha256').update('a context').digest('base64url').slice(0, 22));
    // Same length, one character apart: still two keys.
    expect(responseCacheKey('q', 'tree: aab')).not.toBe(responseCacheKey('q', 'tree: aba'));
  });

  it('keeps an answer for 5 minutes, then drops it', () => {
    const clock = new FakeClock();
    const cache = new ResponseCache({ clock });
    cache.set('q', 'ctx', 'A');
    clock.time += RESPONSE_CACHE_TTL_MS - 1;
    expect(cache.get('q', 'ctx')).toBe('A');
    clock.time += 1;
    expect(cache.get('q', 'ctx')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('is bounded: the oldest entry goes first', () => {
    const cache = new ResponseCache({ clock: new FakeClock(), maxEntries: 2 });
    cache.set('a', 'ctx', '1');
    cache.set('b', 'ctx', '2');
    cache.set('a', 'ctx', '1 again');
    cache.set('c', 'ctx', '3');
    expect(cache.get('b', 'ctx')).toBeUndefined();
    expect(cache.get('a', 'ctx')).toBe('1 again');
    expect(cache.get('c', 'ctx')).toBe('3');
    expect(cache.size).toBe(2);
  });

  it('counts only tools that declare read-only effects as cacheable: acting tools, plugins that declare nothing and unknown names are not', () => {
    const byName = new Map(builtinTools().map((tool) => [tool.name, tool]));
    expect(isCacheableToolUse([])).toBe(true);
    expect(isCacheableToolUse(['ui_tree', 'ui_read', 'ui_find', 'ui_apps', 'ui_wait_for'].map((name) => byName.get(name)))).toBe(true);
    for (const acting of ['ui_action', 'ui_fill_form', 'ui_close_window', 'ui_focus_app']) {
      expect(isCacheableToolUse([byName.get('ui_tree'), byName.get(acting)])).toBe(false);
    }
    expect(isCacheableToolUse([byName.get('ui_tree'), {}])).toBe(false);
    expect(isCacheableToolUse([byName.get('ui_tree'), undefined])).toBe(false);
  });
});
