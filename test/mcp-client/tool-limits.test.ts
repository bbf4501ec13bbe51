/**
 * Hostile or careless MCP servers against the agent's toolbox, in memory: thousands of tools,
 * a 10 MB schema, a schema nested hundreds deep, colliding names, a server that is slow to
 * start, and one that announces list changes without end.
 */
import { McpServer as SdkServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeMcpNotice } from '../../src/core/mcp-client/server';
import { McpToolbox, type McpToolboxOptions } from '../../src/core/mcp-client/toolbox';
import type { McpServers } from '../../src/core/mcp-client/config';

type Build = (server: SdkServer) => void;

let toolbox: McpToolbox | undefined;
afterEach(async () => toolbox?.close());

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Each configured server name gets an in-memory SDK server built by `builds[name]`; `delays` hold a start back until released. */
function boxOf(builds: Record<string, Build>, options: McpToolboxOptions = {}, hold: Record<string, Promise<void>> = {}) {
  const notices: string[] = [];
  const servers: Record<string, SdkServer> = {};
  const config: McpServers = Object.fromEntries(Object.keys(builds).map((name) => [name, { command: name }]));
  toolbox = new McpToolbox(config, {
    ...options,
    onNotice: (notice) => notices.push(describeMcpNotice(notice)),
    transport: (server) => {
      const name = 'command' in server ? server.command : '';
      const sdk = new SdkServer({ name, version: '1' }, { capabilities: { tools: { listChanged: true } } });
      builds[name]?.(sdk);
      servers[name] = sdk;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void sdk.connect(serverSide);
      const held = hold[name];
      if (held === undefined) return clientSide;
      // A slow server: its transport starts only when released.
      const start = clientSide.start.bind(clientSide);
      clientSide.start = async () => {
        await held;
        await start();
      };
      return clientSide;
    },
  });
  return { toolbox, notices, servers };
}

function many(count: number): Build {
  return (server) => {
    for (let index = 0; index < count; index += 1) server.registerTool(`tool${index}`, { description: `Tool ${index}` }, () => text('ok'));
  };
}

describe('limits on external tools', () => {
  it('caps the tools of one server and of all servers, saying how many were left out', async () => {
    const { toolbox: box, notices } = boxOf({ big: many(10_000), small: many(5) }, { limits: { perServer: 50, total: 52 } });
    const tools = await box.tools();
    expect(tools.filter((tool) => tool.name.startsWith('big__'))).toHaveLength(50);
    expect(tools.filter((tool) => tool.name.startsWith('small__'))).toHaveLength(2);
    expect(notices).toContain('MCP server big: left out 9950 tools over the limit of 50 a server');
    expect(notices).toContain('MCP server small: left out 3 tools over the limit of 52 from all servers');
    // Said once, not on every ask.
    await box.tools();
    expect(notices.filter((notice) => notice.startsWith('MCP server big:'))).toHaveLength(1);
  }, 30_000);

  it('leaves out a tool whose schema is too large or too deep, and keeps its good neighbours', async () => {
    const wide = Object.fromEntries(Array.from({ length: 2_000 }, (_unused, index) => [`field${index}`, z.string().describe('x'.repeat(50))]));
    let deep: z.ZodType = z.string();
    for (let level = 0; level < 40; level += 1) deep = z.object({ inner: deep });
    const { toolbox: box, notices } = boxOf({
      odd: (server) => {
        server.registerTool('huge', { inputSchema: wide }, () => text('no'));
        server.registerTool('deep', { inputSchema: { inner: deep } }, () => text('no'));
        server.registerTool('fine', { inputSchema: { text: z.string() } }, () => text('yes'));
      },
    });
    const tools = await box.tools();
    expect(tools.map((tool) => tool.name)).toEqual(['odd__fine']);
    expect(notices).toContainEqual(
      expect.stringMatching(
        /^MCP server odd: left out 2 tools: "huge" \(its input schema is [\d,]+ characters \(the limit is 20,000\)\), "deep" \(its input schema nests more than 12 levels deep\)$/,
      ),
    );
  });

  it('keeps both of two tools whose names collide (read.file and read_file), one suffixed', async () => {
    const { toolbox: box } = boxOf({
      files: (server) => {
        server.registerTool('read.file', { description: 'dotted' }, () => text('dotted'));
        server.registerTool('read_file', { description: 'underscored' }, () => text('underscored'));
      },
    });
    const tools = await box.tools();
    expect(tools.map((tool) => [tool.name, tool.external?.tool])).toEqual([
      ['files__read_file', 'read.file'],
      ['files__read_file_2', 'read_file'],
    ]);
    const context = { signal: new AbortController().signal, log: () => undefined } as never;
    expect((await tools[1]?.handler({}, context))?.message).toBe('underscored');
  });

  it('cuts a long title where an approval shows it, and the description the model reads', async () => {
    const { toolbox: box } = boxOf({
      files: (server) =>
        server.registerTool('wipe', { title: `Wipe\u001b]52;c;ZXZpbA==\u0007${'y'.repeat(100_000)}`, description: 'd'.repeat(5_000) }, () => text('ok')),
    });
    const [tool] = await box.tools();
    expect(tool?.title).toHaveLength('files › '.length + 80);
    expect(tool?.title).toBe(`files › Wipe\u001b]52;c;ZXZpbA==\u0007${'y'.repeat(59)}…`);
    expect(tool?.safety?.risk?.({} as never, undefined, () => undefined, 'fake')).toEqual({ code: 'external', values: { tool: tool?.title } });
    expect(tool?.description).toHaveLength('[MCP server files] '.length + 1_001);
  });

  it('does not hold an ask for a slow server: its tools join once it is up', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { toolbox: box, notices } = boxOf({ quick: many(1), slow: many(1) }, { readyWaitMs: 50 }, { slow: held });
    expect((await box.tools()).map((tool) => tool.name)).toEqual(['quick__tool0']);
    expect(notices).toContain('MCP server slow: is still starting; its tools join the next ask once it is up');
    release();
    await expect.poll(async () => (await box.tools()).map((tool) => tool.name)).toEqual(['quick__tool0', 'slow__tool0']);
  });

  it('reads a burst of list_changed notifications once, not once each', async () => {
    let lists = 0;
    const { toolbox: box, servers } = boxOf({ noisy: many(1) }, { listChangedDebounceMs: 100 });
    await box.tools();
    const sdk = servers['noisy'] as SdkServer;
    const listHandler = (sdk.server as unknown as { _requestHandlers: Map<string, (...args: unknown[]) => unknown> })._requestHandlers.get('tools/list');
    sdk.server.setRequestHandler((await import('@modelcontextprotocol/sdk/types.js')).ListToolsRequestSchema, (request, extra) => {
      lists += 1;
      return listHandler?.(request, extra) as never;
    });
    for (let index = 0; index < 200; index += 1) sdk.sendToolListChanged();
    await expect.poll(() => lists).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lists).toBeLessThanOrEqual(2);
  });
});
