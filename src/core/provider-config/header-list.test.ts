import { describe, expect, it } from 'vitest';
import { parseHeaderList } from './header-list';

describe('parseHeaderList', () => {
  it('parses "name: value; name2: value2", keeping colons inside values', () => {
    expect(parseHeaderList(' X-A: 1 ;X-B: http://x:8080/y; ', 'test')).toEqual({ 'X-A': '1', 'X-B': 'http://x:8080/y' });
  });

  it.each([
    ['X-A 1', /no ':'/],
    [': value', /not a valid header name/],
    ['Bad Name: v', /not a valid header name/],
    ['X-A:', /needs a value/],
  ])('rejects %j with a PROVIDER_CONFIG error that names the format', (text, message) => {
    expect(() => parseHeaderList(text, 'DESKPILOT_HEADERS')).toThrow(message);
    expect(() => parseHeaderList(text, 'DESKPILOT_HEADERS')).toThrow(/DESKPILOT_HEADERS, entry 1.*name: value; name2: value2/);
  });

  it('never echoes a header value, which may be a credential', () => {
    try {
      parseHeaderList('Authorization: Bearer sk-secret; oops', 'DESKPILOT_HEADERS');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'PROVIDER_CONFIG' });
      expect(String((error as Error).message)).toMatch(/entry 2/);
      expect(String((error as Error).message)).not.toContain('sk-secret');
    }
  });
});
