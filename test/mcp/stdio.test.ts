import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';

const bin = fileURLToPath(new URL('../../bin/deskpilot.js', import.meta.url));

describe('deskpilot mcp over stdio', () => {
  it('serves the fake desktop from a plain process, logging only to stderr, and ends when stdin closes', async () => {
    const env = Object.fromEntries(
      Object.entries({ ...process.env, DESKPILOT_PLATFORM: 'fake' }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--max-chars', '1500', '--apps', 'notes'],
      env,
      stderr: 'pipe',
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'ui_apps', arguments: {} });
    expect(result.structuredContent).toEqual({ apps: [expect.objectContaining({ pid: 4243, name: 'Notes' })], allowList: ['notes'] });
    const tree = await client.callTool({ name: 'ui_tree', arguments: { app: 'notes' } });
    expect(JSON.stringify(tree.content).length).toBeLessThan(1600);
    await client.close();
    expect(stderr.join('')).toMatch(
      /^deskpilot mcp: serving on stdio; tools: ui_apps, ui_tree, ui_find, ui_read, ui_screenshot, ui_action, ui_fill_form, ui_wait_for, ui_close_window, docs_search, workflow_run; max 1500 characters a result; apps: notes\ndeskpilot mcp: ui_apps ok \d+ ms\ndeskpilot mcp: ui_tree ok \d+ ms\ndeskpilot mcp: closed\n$/,
    );
  });

  it('answers a message over 10 MB with a JSON-RPC error, goes on serving, and still exits when stdin closes', async () => {
    const env = Object.fromEntries(
      Object.entries({ ...process.env, DESKPILOT_PLATFORM: 'fake' }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], env, stderr: 'pipe' });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    const pid = transport.pid as number;
    const huge = client.callTool({ name: 'ui_find', arguments: { name: 'x'.repeat(11 * 1024 * 1024) } });
    await expect(huge).rejects.toMatchObject({ code: -32600, message: expect.stringMatching(/the message is \d+ bytes, over the limit of 10485760 bytes/) });
    // The same session answers the next call.
    const apps = await client.callTool({ name: 'ui_apps', arguments: {} });
    expect(apps.isError).toBeUndefined();
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(stderr.join('')).toMatch(/refused a message of \d+ bytes \(over the 10485760-byte limit\)/);
    expect(stderr.join('')).toMatch(/deskpilot mcp: closed\n$/);
    // No lingering process: the SDK's close waits for the child to exit.
    expect(() => process.kill(pid, 0)).toThrow();
  }, 30_000);

  it('refuses a bad flag before serving, with exit code 2', async () => {
    const err: string[] = [];
    const code = await main(['mcp', '--max-chars', 'ten'], { stdout: () => undefined, stderr: (text) => err.push(text), env: {} });
    expect(code).toBe(2);
    expect(err).toEqual(["deskpilot: VALIDATION: --max-chars needs a whole number of at least 1000, got 'ten'"]);
  });
});
