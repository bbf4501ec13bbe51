/**
 * The agent's MCP client against real servers over stdio: the project's own MCP server (fake
 * desktop) as a well-behaved one, and a server that misbehaves in every way it can.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { describeMcpNotice } from '../../src/core/mcp-client/server';
import { McpToolbox } from '../../src/core/mcp-client/toolbox';
import { FakeClock } from '../../src/core/clock';
import type { McpServers } from '../../src/core/mcp-client/config';
import type { Tool, ToolContext } from '../../src/core/tools/types';
import { MISBEHAVING_SERVER } from './misbehaving-command';

const bin = fileURLToPath(new URL('../../bin/deskpilot.js', import.meta.url));

const SERVERS: McpServers = {
  desk: { command: process.execPath, args: [bin, 'mcp'], env: { DESKPILOT_PLATFORM: 'fake' } },
  odd: MISBEHAVING_SERVER,
};

let toolbox: McpToolbox | undefined;
afterEach(async () => toolbox?.close());

function context(signal = new AbortController().signal): ToolContext {
  return { signal, log: () => undefined } as unknown as ToolContext;
}

async function run(tools: Tool[], name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) {
  const tool = tools.find((each) => each.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${tools.map((each) => each.name).join(', ')}`);
  return tool.handler(args, context(signal));
}

describe('tools from MCP servers', () => {
  it('lists every server’s tools with the server as prefix, read-only ones as reading', async () => {
    const notices: string[] = [];
    toolbox = new McpToolbox(SERVERS, { onNotice: (notice) => notices.push(describeMcpNotice(notice)) });
    const tools = await toolbox.tools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['desk__ui_apps', 'desk__ui_action', 'odd__echo', 'odd__hang']));
    expect(tools.find((tool) => tool.name === 'desk__ui_apps')?.effects).toBe('read');
    expect(tools.find((tool) => tool.name === 'desk__ui_action')?.effects).toBe('act');
    expect(tools.find((tool) => tool.name === 'odd__echo')?.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    // The first start is reported; a second look reuses the running servers.
    expect(notices).toEqual(expect.arrayContaining([expect.stringMatching(/^MCP server desk started with \d+ tools$/), 'MCP server odd started with 8 tools']));
    const seen = notices.length;
    await toolbox.tools();
    expect(notices).toHaveLength(seen);
    const apps = await run(tools, 'desk__ui_apps');
    expect(apps).toMatchObject({ success: true });
    expect(apps.message).toContain('Notes');
  }, 30_000);

  it('turns each misbehaviour into a typed error or a cut result, and keeps the server usable', async () => {
    const notices: string[] = [];
    // The restart backoff is read off this clock, so the test moves time on instead of sleeping.
    const clock = new FakeClock();
    toolbox = new McpToolbox(
      { odd: SERVERS['odd'] as McpServers[string] },
      { callTimeoutMs: 1500, clock, onNotice: (notice) => notices.push(describeMcpNotice(notice)) },
    );
    let tools = await toolbox.tools();
    // Hangs: a timeout, typed.
    await expect(run(tools, 'odd__hang')).rejects.toMatchObject({ code: 'TIMEOUT' });
    // Stopped: the call is cancelled by the stop, not left to run into its timeout.
    const stop = new AbortController();
    const hanging = run(tools, 'odd__hang', {}, stop.signal);
    stop.abort();
    const cancelled = (await hanging.then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: unknown; name?: unknown } | undefined;
    expect(cancelled).toBeDefined();
    expect(cancelled?.code).not.toBe('TIMEOUT');
    // A megabyte is cut to the budget; an error result is a failure with the server's words.
    const huge = await run(tools, 'odd__huge');
    expect(huge.message.length).toBeLessThan(13_000);
    expect(huge.message).toMatch(/… cut: 988000 more characters$/);
    expect(await run(tools, 'odd__fail')).toEqual({ success: false, message: 'the invoice folder is empty' });
    // A line that is not JSON-RPC is skipped; the answer still comes.
    expect(await run(tools, 'odd__garble')).toMatchObject({ success: true, message: 'after garbage' });
    // A new tool appears after list_changed.
    await run(tools, 'odd__change');
    await expect.poll(async () => (await toolbox?.tools())?.some((tool) => tool.name === 'odd__added')).toBe(true);
    // A crash mid-call: a typed error, a notice, and the next use starts the server again (after its backoff).
    await expect(run(tools, 'odd__crash')).rejects.toMatchObject({ code: 'TOOL_SERVER' });
    await expect.poll(() => notices.some((notice) => notice.includes('MCP server odd stopped'))).toBe(true);
    clock.time += 1_000;
    tools = await toolbox.tools();
    expect(await run(tools, 'odd__echo', { text: 'back' })).toMatchObject({ success: true, message: 'echo: back' });
  }, 60_000);

  it('starts a server with its own env and a few safe variables, never this process’s secrets', async () => {
    process.env['DESKPILOT_API_KEY'] = 'sk-not-for-servers';
    try {
      toolbox = new McpToolbox({ odd: { ...(SERVERS['odd'] as McpServers[string]), env: { INVOICES_TOKEN: 't' } } as McpServers[string] });
      const names = (await run(await toolbox.tools(), 'odd__env')).message.split(',');
      expect(names).toContain('INVOICES_TOKEN');
      expect(names).toContain('PATH');
      expect(names).not.toContain('DESKPILOT_API_KEY');
    } finally {
      delete process.env['DESKPILOT_API_KEY'];
    }
  }, 30_000);

  it('leaves out a server that cannot start, says why, and still offers the others', async () => {
    const notices: string[] = [];
    const clock = new FakeClock();
    toolbox = new McpToolbox(
      { broken: { command: '/nonexistent/server' }, odd: SERVERS['odd'] as McpServers[string] },
      // A clock that stands still: the backoff is judged by it, not by how long the other server takes to start.
      { clock, onNotice: (notice) => notices.push(describeMcpNotice(notice)) },
    );
    const tools = await toolbox.tools();
    expect(tools.some((tool) => tool.name.startsWith('broken__'))).toBe(false);
    expect(tools.some((tool) => tool.name === 'odd__echo')).toBe(true);
    expect(notices).toContainEqual(expect.stringMatching(/^MCP server broken could not start: .*ENOENT/));
    // Until its backoff passes, it is not started again on every ask.
    await toolbox.tools();
    expect(notices.filter((notice) => notice.startsWith('MCP server broken could not start'))).toHaveLength(1);
    // Once it has passed, the next ask tries again.
    clock.time += 1_000;
    await toolbox.tools();
    expect(notices.filter((notice) => notice.startsWith('MCP server broken could not start'))).toHaveLength(2);
  }, 30_000);
});
