import { describe, expect, it } from 'vitest';
import { APIError } from 'openai';
import type { ResolvedProviderConfig } from '../../provider-config/config';
import { mapRequestError, parseRetryAfter, redactedCause } from './map-error';
import { PRESETS } from '../../provider-config/presets';
import { rejectsImages } from './vision';

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

describe('a refusal of images', () => {
  const config: ResolvedProviderConfig = {
    preset: 'openai',
    presetInfo: PRESETS.openai,
    baseUrl: PRESETS.openai.baseUrl,
    model: 'llava-vision',
    apiKey: 'sk-k',
    headers: {},
    label: PRESETS.openai.label,
    custom: false,
  };
  const refused = (status: number, message: string) => mapRequestError(APIError.generate(status, { error: { message } }, undefined, new Headers()), config);

  it('is marked by the server’s words, and says what to do', () => {
    const error = refused(400, 'image input is not supported by this model');
    expect(error.data).toEqual({ status: 400, images: true });
    expect(error.message).toMatch(/may not take images/);
    expect(rejectsImages(error)).toBe(true);
    expect(rejectsImages(refused(404, 'No endpoints found that support image input'))).toBe(true);
  });

  it('is not read into the model’s name or another refusal', () => {
    expect(rejectsImages(refused(404, 'model llava-vision not found'))).toBe(false);
    expect(rejectsImages(refused(400, 'max_tokens is too large'))).toBe(false);
    expect(rejectsImages(refused(500, 'image decoder crashed'))).toBe(false);
    // Another provider's error: judged by its own status and words.
    expect(rejectsImages(Object.assign(new Error('400 vision is not enabled'), { status: 400 }))).toBe(true);
    expect(rejectsImages(new Error('image'))).toBe(false);
  });
});
