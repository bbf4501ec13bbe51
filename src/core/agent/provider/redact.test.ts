import { describe, expect, it } from 'vitest';
import { redact, secretsOf } from './redact';

describe('redact', () => {
  it('takes out the key, authenticating header values, URL credentials and bearer tokens', () => {
    const secrets = secretsOf({ apiKey: 'k-123', headers: { 'X-Title': 'Deskpilot', 'api-key': 'azure-secret-1', Authorization: 'Bearer proxy-token-9' } });
    expect(secrets).toEqual(['k-123', 'azure-secret-1', 'Bearer proxy-token-9', 'proxy-token-9']);
    const text = redact(
      'key k-123 and azure-secret-1 sent to https://ada:pw@host/v1 with Bearer proxy-token-9, Basic YWRhOnB3 and sk-abcdefghijkl; title Deskpilot',
      secrets,
    );
    expect(text).toBe('key [redacted] and [redacted] sent to https://***@host/v1 with [redacted], Basic [redacted] and [redacted]; title Deskpilot');
  });
});
