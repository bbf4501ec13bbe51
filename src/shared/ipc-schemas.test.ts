import { describe, expect, it } from 'vitest';
import { CHANNELS } from './ipc';
import { REQUEST_SCHEMAS } from './ipc-schemas';
import { describeIssues } from './validation';
import { parseWire } from './rpc/wire';

describe('describeIssues', () => {
  it('names each field and never echoes a value, for IPC payloads and host messages alike', () => {
    const parsed = REQUEST_SCHEMAS[CHANNELS.updateSettings].safeParse({ baseUrl: 'ftp://sk-secret@example.com', historyLimit: 'sk-secret' });
    expect(parsed.success).toBe(false);
    const text = describeIssues(parsed.error?.issues ?? [], { max: 3 });
    expect(text).toMatch(/'baseUrl': /);
    expect(text).toMatch(/'historyLimit': /);
    expect(text).not.toContain('sk-secret');
    const host = parseWire({ rpc: 'error', id: 1, error: { code: 'X', message: 'sk-secret' } });
    expect(host).toMatchObject({ ok: false });
    expect(JSON.stringify(host)).not.toContain('sk-secret');
  });

  it('bounds the base URL like the settings store does', () => {
    expect(REQUEST_SCHEMAS[CHANNELS.updateSettings].safeParse({ baseUrl: `https://example.com/${'a'.repeat(2000)}` }).success).toBe(false);
    expect(REQUEST_SCHEMAS[CHANNELS.updateSettings].safeParse({ baseUrl: 'https://example.com/v1', headers: null }).success).toBe(true);
  });
});
