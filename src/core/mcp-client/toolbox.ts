import { clip } from '../../shared/clip';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyTool, Tool } from '../tools/types';
import type { McpServers } from './config';
import { DEFAULT_TOOL_LIMITS, schemaProblem, uniqueName, type ToolLimits } from './limits';
import { McpServer, type McpServerOptions } from './server';

/** OpenAI function names: letters, digits, _ and -, at most 64. */
function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** `files__read_file`: the server's name first, so tools of two servers never clash. */
export function externalToolName(server: string, tool: string): string {
  return `${safeName(server)}__${safeName(tool)}`.slice(0, 64);
}

/**
 * Most characters of a tool's title as the approval card and prompt show it (`server › title`):
 * the server writes it, and a 100,000-character title filled every approval prompt.
 */
export const MAX_TITLE_CHARS = 80;

/** Any JSON object: the server checks the arguments against its own schema. */
const ARGS = z.record(z.string(), z.unknown());
type ArgsSchema = typeof ARGS;

/**
 * The agent's view of one external tool. Its arguments are checked by the server against its
 * own schema, which the model sees as it is. A tool the server does not mark read-only acts,
 * so the approval policy treats it as risky.
 */
function toolOf(server: McpServer, tool: McpTool, name: string, descriptionChars: number): Tool<ArgsSchema> {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const target = `${server.name} › ${clip(tool.annotations?.title ?? tool.title ?? tool.name, MAX_TITLE_CHARS)}`;
  const description = tool.description ?? tool.name;
  return {
    name,
    title: target,
    description: `[MCP server ${server.name}] ${description.length > descriptionChars ? `${description.slice(0, descriptionChars)}…` : description}`,
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

export interface McpToolboxOptions extends McpServerOptions {
  limits?: Partial<ToolLimits>;
  /**
   * How long an ask waits for servers that are still starting. A slow one goes on starting in
   * the background, and its tools join the first ask after it is up.
   */
  readyWaitMs?: number;
}

/**
 * An ask waits this long for a server that is starting (npx-started ones take seconds on a busy
 * machine); one still not up goes on starting in the background, and the ask goes on without it.
 */
const READY_WAIT_MS = 10_000;

/**
 * The user's MCP servers, started on first use, all at once, each on its own: one that fails
 * to start, or is slow to, is left out of this ask (and said so), the others' tools are offered.
 * Every tool is held to the limits, and two tools that would share a name both stay, one suffixed.
 */
export class McpToolbox {
  private readonly servers: McpServer[];
  private readonly limits: ToolLimits;
  private readonly options: McpToolboxOptions;
  /** What was last said about each server's tools, so an ask does not repeat it. */
  private readonly said = new Map<string, string>();

  constructor(config: McpServers, options: McpToolboxOptions = {}) {
    this.options = options;
    this.limits = { ...DEFAULT_TOOL_LIMITS, ...options.limits };
    this.servers = Object.entries(config).map(([name, server]) => new McpServer(name, server, options));
  }

  get size(): number {
    return this.servers.length;
  }

  async tools(): Promise<AnyTool[]> {
    const waitMs = this.options.readyWaitMs ?? READY_WAIT_MS;
    const lists = await Promise.all(this.servers.map((server) => this.ready(server, waitMs)));
    const taken = new Set<string>();
    const offered: AnyTool[] = [];
    for (const [index, server] of this.servers.entries()) {
      const problems: string[] = [];
      let overServer = 0;
      let overTotal = 0;
      let accepted = 0;
      for (const tool of lists[index] ?? []) {
        const problem = schemaProblem(tool.inputSchema, this.limits);
        if (problem !== undefined) {
          problems.push(`${JSON.stringify(tool.name.slice(0, 64))} (${problem})`);
        } else if (accepted >= this.limits.perServer) {
          overServer += 1;
        } else if (offered.length >= this.limits.total) {
          overTotal += 1;
        } else {
          const name = uniqueName(externalToolName(server.name, tool.name), taken);
          taken.add(name);
          offered.push(toolOf(server, tool, name, this.limits.descriptionChars));
          accepted += 1;
        }
      }
      this.tell(server.name, [
        ...(problems.length === 0
          ? []
          : [`left out ${problems.length} tool${problems.length === 1 ? '' : 's'}: ${problems.slice(0, 3).join(', ')}${problems.length > 3 ? ', …' : ''}`]),
        ...(overServer === 0 ? [] : [`left out ${overServer} tools over the limit of ${this.limits.perServer} a server`]),
        ...(overTotal === 0 ? [] : [`left out ${overTotal} tools over the limit of ${this.limits.total} from all servers`]),
      ]);
    }
    return offered;
  }

  /** Its tools, or none for this ask when it fails to start or is not up within readyWaitMs. */
  private async ready(server: McpServer, waitMs: number): Promise<McpTool[]> {
    const listing = server.tools().catch(() => [] as McpTool[]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
    const tools = await Promise.race([listing, late]);
    clearTimeout(timer);
    if (tools !== undefined) return tools;
    this.tell(server.name, ['is still starting; its tools join the next ask once it is up']);
    return [];
  }

  private tell(server: string, problems: string[]): void {
    const problem = problems.join('; ');
    if ((this.said.get(server) ?? '') === problem) return;
    this.said.set(server, problem);
    if (problem !== '') this.options.onNotice?.({ kind: 'limited', server, problem });
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.close()));
  }
}
