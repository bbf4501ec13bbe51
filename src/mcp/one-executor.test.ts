import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionEngine } from '../core/actions/engine';
import { createToolRegistry } from '../core/agent/tool-registry/registry';
import { FakeClock } from '../core/clock';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import type { ToolContext } from '../core/tools/types';
import { DEFAULT_MAX_CHARS } from './options';
import { createMcpServer } from './server';

/**
 * The agent and the MCP server run tools through one executor (core/tools/execute.ts), so a
 * model reads the same words for the same failure whichever program it talks to.
 */

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function mcp(platform: FakePlatform): Promise<(name: string, args: Record<string, unknown>) => Promise<{ text: string; error: unknown }>> {
  const { server } = createMcpServer({
    options: { maxChars: DEFAULT_MAX_CHARS, readOnly: false, apps: undefined },
    createCore: () => Promise.resolve({ platform, engine: new ActionEngine({ platform }) }),
    log: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  // A client that has listed the tools checks structured content against their output schemas.
  await client.listTools();
  return async (name, args) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const first = result.content[0];
    expect(result.isError).toBe(true);
    // A refusal's or a throw's only data is its error, and that travels in _meta, not as the tool's promised shape.
    expect(result.structuredContent).toBeUndefined();
    return { text: first?.type === 'text' ? first.text : '', error: result._meta?.['deskpilot/error'] };
  };
}

function agent(platform: FakePlatform): (name: string, args: Record<string, unknown>) => Promise<{ text: string; error: unknown }> {
  const registry = createToolRegistry();
  const clock = new FakeClock();
  const context: ToolContext = {
    engine: new ActionEngine({ platform, clock }),
    platform,
    targetPid: FIXTURE_PID,
    signal: new AbortController().signal,
    clock,
    log: () => undefined,
  };
  return async (name, args) => {
    const result = await registry.call(name, JSON.stringify(args), context);
    expect(result.success).toBe(false);
    return { text: result.message, error: result.error };
  };
}

describe('one executor for the agent and the MCP server', () => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['arguments the schema refuses', 'ui_tree', { pid: 'twelve' }, /^VALIDATION: invalid arguments for ui_tree: 'pid'/],
    ['a field the tool does not have', 'ui_find', { pid: FIXTURE_PID, colour: 'red' }, /^VALIDATION: invalid arguments for ui_find: .*unknown field 'colour'/],
    ['a throw inside the tool (a dead pid)', 'ui_tree', { pid: 999 }, /^PROCESS_EXITED: process not running \(pid 999\)\. The app has exited/],
    ['a name in the wrong case', 'UI_TREE', {}, /^VALIDATION: unknown tool 'UI_TREE'\. Tool names are lowercase: call 'ui_tree'\./],
  ];

  it.each(cases)('words %s the same way, with the same typed error', async (_what, name, args, expected) => {
    const platform = new FakePlatform();
    const [fromAgent, fromMcp] = [await agent(platform)(name, args), await (await mcp(platform))(name, args)];
    expect(fromAgent.text).toMatch(expected);
    expect(fromMcp.text).toBe(fromAgent.text);
    expect(fromMcp.error).toEqual(fromAgent.error);
  });
});
