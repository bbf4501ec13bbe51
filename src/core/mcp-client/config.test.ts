import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpServers } from '../../shared/mcp-servers';
import { loadMcpConfigFile } from './config';

describe('MCP server configuration', () => {
  it('reads a Claude Desktop or Cursor config unchanged, stdio and HTTP servers alike', () => {
    const claude = {
      mcpServers: {
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada/Documents'], env: { DEBUG: '1' } },
        calendar: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
        old: { command: 'old-server', disabled: true },
      },
      globalShortcut: 'Ctrl+Space',
    };
    expect(parseMcpServers(claude)).toEqual({
      files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada/Documents'], env: { DEBUG: '1' } },
      calendar: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
    });
    // The mcpServers object alone works too (Settings edits just that).
    expect(parseMcpServers({ files: { command: 'npx' } })).toEqual({ files: { command: 'npx' } });
  });

  it('names the wrong field', () => {
    expect(() => parseMcpServers({ mcpServers: { files: { command: 3 } } })).toThrow(/mcpServers: .*files/);
    expect(() => parseMcpServers({ mcpServers: { web: { url: 'ftp://x' } } })).toThrow(/mcpServers: .*web/);
    expect(() => parseMcpServers({ mcpServers: { files: { args: ['x'] } } })).toThrow(/command.*url|give `command`/);
  });

  it('says when a file cannot be read or is not JSON', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-mcp-config-'));
    const file = path.join(dir, 'claude_desktop_config.json');
    writeFileSync(file, '{ "mcpServers": ');
    await expect(loadMcpConfigFile(file)).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/is not JSON/) });
    await expect(loadMcpConfigFile(path.join(dir, 'missing.json'))).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/cannot read/),
    });
  });
});
