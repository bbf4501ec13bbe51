/**
 * The agent's MCP client against a real server over Streamable HTTP (`url` + `headers` in the
 * config): tools, calls, the header, list changes, HTTP errors, a server that is not there, and
 * one that forgot the session.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpServer, describeMcpNotice } from '../../src/core/mcp-client/server';
import { McpToolbox } from '../../src/core/mcp-client/toolbox';
import type { Tool, ToolContext } from '../../src/core/tools/types';
import { PIXEL, startHttpMcpServer, type HttpMcpServer } from './http-server';

let server: HttpMcpServer;
let toolbox: McpToolbox | undefined;
let direct: McpServer | undefined;

beforeEach(async () => {
  server = await startHttpMcpServer();
});
afterEach(async () => {
  await toolbox?.close();
  await direct?.close();
  toolbox = undefined;
  direct = undefined;
  await server.close();
});

const signal = () => new AbortController().signal;

async function run(tools: Tool[], name: string, args: Record<string, unknown> = {}) {
  const tool = tools.find((each) => each.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${tools.map((each) => each.name).join(', ')}`);
  return tool.handler(args, { signal: signal(), log: () => undefined } as unknown as ToolContext);
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('an MCP server over Streamable HTTP', () => {
  it('lists its tools as server__tool, runs a call, and sends the configured header on every request', async () => {
    const notices: string[] = [];
    toolbox = new McpToolbox(
      { web: { url: server.url, headers: { Authorization: 'Bearer t' } } },
      { onNotice: (notice) => notices.push(describeMcpNotice(notice)) },
    );
    const tools = await toolbox.tools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['web__change', 'web__echo', 'web__shot']);
    expect(tools.find((tool) => tool.name === 'web__echo')?.effects).toBe('read');
    expect(notices).toEqual(['MCP server web started with 3 tools']);
    expect(await run(tools, 'web__echo', { text: 'hi' })).toEqual({ success: true, message: 'echo: hi' });
    // An image comes through for a model that can see it.
    expect(await run(tools, 'web__shot')).toEqual({
      success: true,
      message: `the screen\n[image image/png, ${Buffer.from(PIXEL, 'base64').length} bytes]`,
      images: [{ mimeType: 'image/png', data: PIXEL }],
    });
    expect(server.authorizations.length).toBeGreaterThanOrEqual(4);
    expect(new Set(server.authorizations)).toEqual(new Set(['Bearer t']));
    // Closing ends the session on the server (DELETE) instead of leaving it to expire.
    expect(server.sessions()).toBe(1);
    await toolbox.close();
    expect(server.methods).toContain('DELETE');
    expect(server.sessions()).toBe(0);
  });

  it('follows a tool list change', async () => {
    toolbox = new McpToolbox({ web: { url: server.url } });
    const tools = await toolbox.tools();
    expect(await run(tools, 'web__change')).toMatchObject({ success: true, message: 'changed' });
    await expect.poll(async () => (await toolbox?.tools())?.map((tool) => tool.name)).toContain('web__added');
  });

  it.each([401, 500])('a server answering HTTP %i is a typed, visible error, short, and no crash', async (status) => {
    server.failWith = status;
    const notices: string[] = [];
    direct = new McpServer(
      'web',
      { url: server.url, headers: { Authorization: 'Bearer wrong' } },
      { onNotice: (notice) => notices.push(describeMcpNotice(notice)) },
    );
    const error = await direct.tools().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'TOOL_SERVER', message: expect.stringMatching(/^the web server could not start: .*error page/) as unknown });
    // An HTML error page is cut: the problem travels in a notice to the window.
    expect((error as Error).message.length).toBeLessThan(400);
    expect(notices).toEqual([expect.stringMatching(/^MCP server web could not start: /)]);
    // The toolbox leaves it out of the ask and offers the rest.
    toolbox = new McpToolbox({ web: { url: server.url } });
    expect(await toolbox.tools()).toEqual([]);
  });

  it('a server that is not listening is a typed error that names why', async () => {
    direct = new McpServer('web', { url: `http://127.0.0.1:${await closedPort()}/mcp` });
    await expect(direct.tools()).rejects.toMatchObject({ code: 'TOOL_SERVER', message: expect.stringMatching(/could not start: .*ECONNREFUSED/) as unknown });
  });

  it('starts a new session when the server forgot ours, and the call still runs', async () => {
    const notices: string[] = [];
    direct = new McpServer('web', { url: server.url }, { onNotice: (notice) => notices.push(describeMcpNotice(notice)) });
    await direct.tools();
    await server.forgetSessions();
    expect(await direct.call('echo', { text: 'again' }, signal())).toEqual({ success: true, message: 'echo: again' });
    expect(notices).toEqual(['MCP server web started with 3 tools', 'MCP server web started with 3 tools']);
    // A server that is gone for good: a typed error, and the next call may try again.
    server.failWith = 500;
    await expect(direct.call('echo', { text: 'x' }, signal())).rejects.toMatchObject({ code: 'TOOL_SERVER' });
  });
});
