/** `deskpilot mcp --keep-devices`: an MCP client cannot be asked, so input steps are refused with a typed error. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import { parseMcpOptions } from './options';
import { createMcpServer } from './server';
import { mcpEngine } from './stdio';

async function connect(platform: FakePlatform, keep: boolean): Promise<Client> {
  const options = parseMcpOptions(keep ? { 'keep-devices': true } : {});
  const { server } = createMcpServer({ options, createCore: () => Promise.resolve({ platform, engine: mcpEngine(platform, options) }), log: () => undefined });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

async function clickName(client: Client): Promise<CallToolResult> {
  const found = (await client.callTool({ name: 'ui_find', arguments: { pid: FIXTURE_PID, name: 'Name', role: 'textfield' } })) as CallToolResult;
  const id = (found.structuredContent as { matches: { id: string }[] }).matches[0]?.id;
  return (await client.callTool({ name: 'ui_action', arguments: { pid: FIXTURE_PID, action: 'click', id } })) as CallToolResult;
}

describe('MCP with --keep-devices', () => {
  it('refuses a step only synthetic input can do with PERMISSION_DENIED, sending nothing, and says why', async () => {
    const platform = new FakePlatform();
    const client = await connect(platform, true);
    const result = await clickName(client);
    expect(result.structuredContent).toMatchObject({
      success: false,
      error: { code: 'PERMISSION_DENIED', data: { reason: 'keep-devices', asked: false } },
    });
    const first = result.content[0];
    expect(first?.type === 'text' ? first.text : '').toMatch(/nobody can be asked/);
    expect(platform.inputLog).toEqual([]);
    // Steps with an accessible path still run.
    const found = (await client.callTool({ name: 'ui_find', arguments: { pid: FIXTURE_PID, name: 'Enable feature' } })) as CallToolResult;
    const check = (found.structuredContent as { matches: { id: string }[] }).matches[0]?.id;
    const ticked = (await client.callTool({ name: 'ui_action', arguments: { pid: FIXTURE_PID, action: 'click', id: check } })) as CallToolResult;
    expect(ticked.structuredContent).toMatchObject({ success: true, method: 'accessibility' });
    await client.close();
  });

  it('takes the devices as before without the flag', async () => {
    const platform = new FakePlatform();
    const client = await connect(platform, false);
    expect((await clickName(client)).structuredContent).toMatchObject({ success: true, method: 'input' });
    await client.close();
  });
});
