import { describe, expect, it } from 'vitest';
import { parseRetryAfter, redactedCause } from './map-error';

describe('parseRetryAfter', () => {
  const now = (): number => Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds, retry-after-ms and HTTP dates', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(10_000);
  });

  it('gives undefined for a missing or unreadable header', () => {
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('redactedCause', () => {
  it('removes the key from the message, the stack and nested causes', () => {
    const inner = new Error('inner sk-k');
    const cause = redactedCause(new Error('outer sk-k', { cause: inner }), 'sk-k') as Error;
    expect(cause.message).toBe('outer [redacted]');
    expect(cause.stack).not.toContain('sk-k');
    expect((cause.cause as Error).message).toBe('inner [redacted]');
  });
});
