import { describe, expect, it } from 'vitest';
import { isHttpsUrl } from './urls';

describe('isHttpsUrl', () => {
  it('takes https in any case and nothing else', () => {
    expect(isHttpsUrl('https://example.com/a')).toBe(true);
    expect(isHttpsUrl('HTTPS://example.com')).toBe(true);
    expect(isHttpsUrl('http://example.com')).toBe(false);
    expect(isHttpsUrl('javascript:alert("https://x")')).toBe(false);
    expect(isHttpsUrl('file:///etc/passwd')).toBe(false);
    expect(isHttpsUrl('not a url')).toBe(false);
  });
});
