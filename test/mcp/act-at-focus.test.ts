/**
 * ui_action over MCP as a client sees it: `type` without an id goes to the focused control, and
 * a soft failure's advice names the server's own tools (ui_tree, ui_find), not CLI commands.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionEngine } from '../../src/core/actions/engine';
import { FakeClock } from '../../src/core/clock';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { findNodes } from '../../src/core/ui/query';
import { createMcpServer } from '../../src/mcp/server';

let client: Client;
let platform: FakePlatform;
let engine: ActionEngine;

beforeAll(async () => {
  platform = new FakePlatform();
  engine = new ActionEngine({ platform, clock: new FakeClock() });
  const { server } = createMcpServer({
    options: { maxChars: 20_000, readOnly: false, apps: undefined },
    createCore: () => Promise.resolve({ platform, engine }),
    log: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'act-at-focus', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});

afterAll(() => client.close());

async function act(args: Record<string, unknown>): Promise<{ text: string; result: CallToolResult }> {
  const result = (await client.callTool({ name: 'ui_action', arguments: { pid: FIXTURE_PID, ...args } })) as CallToolResult;
  const first = result.content[0];
  return { text: first?.type === 'text' ? first.text : '', result };
}

async function idOf(name: string, role: string): Promise<string> {
  const found = findNodes((await engine.observe(FIXTURE_PID)).root, { name, role })[0]?.node;
  if (found === undefined) throw new Error(`no ${role} ${name}`);
  return found.id;
}

describe('ui_action over MCP', () => {
  it('types into the focused control when no id is given', async () => {
    const name = await idOf('Name', 'textfield');
    await act({ action: 'click', id: name });
    const typed = await act({ action: 'type', text: 'hello' });
    expect(typed.result.isError).toBeFalsy();
    expect(typed.text).toBe(`type ran via input; changed: value: "" → "hello"\nnow: [${name}] textfield "Name" = "hello" (focused)`);
  });

  it("words a soft failure's advice in the server's tools", async () => {
    const { text } = await act({ action: 'click', id: await idOf('Ready', 'label') });
    expect(text).toContain('read the node again with ui_tree (rootId) or ui_find');
    expect(text).not.toContain('deskpilot ');
  });
});
