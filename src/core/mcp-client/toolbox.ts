import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Tool } from '../tools/types';
import type { McpServers } from './config';
import { McpServer, type McpServerOptions } from './server';

/** OpenAI function names: letters, digits, _ and -, at most 64. */
function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** `files__read_file`: the server's name first, so tools of two servers never clash. */
export function externalToolName(server: string, tool: string): string {
  return `${safeName(server)}__${safeName(tool)}`.slice(0, 64);
}

/** Any JSON object: the server checks the arguments against its own schema. */
const ARGS = z.record(z.string(), z.unknown());
type ArgsSchema = typeof ARGS;

/**
 * The agent's view of one external tool. Its arguments are checked by the server against its
 * own schema, which the model sees as it is. A tool the server does not mark read-only acts,
 * so the approval policy treats it as risky.
 */
function toolOf(server: McpServer, tool: McpTool): Tool<ArgsSchema> {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const target = `${server.name} › ${tool.annotations?.title ?? tool.title ?? tool.name}`;
  return {
    name: externalToolName(server.name, tool.name),
    title: target,
    description: `[MCP server ${server.name}] ${tool.description ?? tool.name}`,
    schema: ARGS,
    parameters: tool.inputSchema,
    external: { server: server.name, tool: tool.name },
    effects: readOnly ? 'read' : 'act',
    safety: {
      plan: (args) => ({ verb: 'run', target, value: JSON.stringify(args) }),
      risk: () => ({ code: 'external', values: { tool: target } }),
    },
    handler: (args, context) => server.call(tool.name, args, context.signal),
  };
}

/**
 * The user's MCP servers, started on first use, all at once, each on its own: one that fails
 * to start is left out of this ask (and said so), the others' tools are offered.
 */
export class McpToolbox {
  private readonly servers: McpServer[];

  constructor(config: McpServers, options: McpServerOptions = {}) {
    this.servers = Object.entries(config).map(([name, server]) => new McpServer(name, server, options));
  }

  get size(): number {
    return this.servers.length;
  }

  async tools(): Promise<Tool[]> {
    const lists = await Promise.all(
      this.servers.map((server) =>
        server.tools().then(
          (tools) => tools.map((tool) => toolOf(server, tool) as unknown as Tool),
          () => [],
        ),
      ),
    );
    return lists.flat();
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.close()));
  }
}
