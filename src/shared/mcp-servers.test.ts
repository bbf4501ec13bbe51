import { describe, expect, it } from 'vitest';
import { redactMcpServers, restoreMcpSecrets, STORED_SECRET } from './mcp-servers';

describe('MCP secrets in the editor', () => {
  it('hides every env and header value, and puts the stored ones back', () => {
    const stored = { files: { command: 'npx', env: { TOKEN: 't' } }, web: { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer b' } } };
    const shown = redactMcpServers(stored);
    expect(shown).toEqual({
      files: { command: 'npx', env: { TOKEN: STORED_SECRET } },
      web: { url: 'https://x.example/mcp', headers: { Authorization: STORED_SECRET } },
    });
    expect(restoreMcpSecrets(shown, stored)).toEqual(stored);
    expect(() => restoreMcpSecrets({ files: { command: 'npx', env: { OTHER: STORED_SECRET } } }, stored)).toThrow(/files\.env\.OTHER/);
  });
});
