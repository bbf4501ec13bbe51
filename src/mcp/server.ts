import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serializeError } from '../shared/errors';
import { AppAllowList } from './allow-list';
import { fitJson, fitText } from './budget';
import type { Core, ToolContext } from './context';
import { serverInstructions } from './instructions';
import type { McpOptions } from './options';
import { looseInput } from './schemas';
import type { McpTool } from './tool';
import { toolError } from './tool-error';
import { actionTool } from './tools/action';
import { appsTool } from './tools/apps';
import { findTool } from './tools/find';
import { readTool } from './tools/read';
import { treeTool } from './tools/tree';

export const SERVER_NAME = 'deskpilot';
export const SERVER_VERSION = '0.1.0';

const ALL_TOOLS = [appsTool, treeTool, findTool, readTool, actionTool] as readonly McpTool<unknown, object>[];

export interface ServerSetup {
  options: McpOptions;
  /** Makes the platform and engine on the first tool call; a failure is that call's error, and the next call tries again. */
  createCore: () => Promise<Core>;
  /** One line per tool call and per problem; stdout belongs to the protocol. */
  log: (line: string) => void;
}

/** The tools this server lists: --read-only leaves ui_action out entirely, so a model is never offered it. */
export function toolsFor(options: McpOptions): readonly McpTool<unknown, object>[] {
  return ALL_TOOLS.filter((tool) => tool.readOnly || !options.readOnly);
}

function lazyCore(create: () => Promise<Core>): () => Promise<Core> {
  let made: Promise<Core> | undefined;
  return () => {
    made ??= create().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

async function call(tool: McpTool<unknown, object>, args: unknown, context: ToolContext, signal: AbortSignal): Promise<CallToolResult> {
  const { maxChars } = context.options;
  const output = await tool.run(tool.parse(args), context, signal);
  // The tools fit their own results; this is the last guard, so no result ever passes the budget.
  const text = fitText(output.text, maxChars, 'Ask for less: ui_tree with rootId and depth.').value;
  const structured = fitJson(output.structured, maxChars).value as Record<string, unknown>;
  return { content: [{ type: 'text', text }], structuredContent: structured, ...(output.isError ? { isError: true } : {}) };
}

export function createMcpServer(setup: ServerSetup): { server: McpServer; context: ToolContext } {
  const context: ToolContext = { core: lazyCore(setup.createCore), options: setup.options, allowList: new AppAllowList(setup.options.apps) };
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: serverInstructions(setup.options.readOnly), capabilities: { tools: {} } },
  );
  for (const tool of toolsFor(setup.options)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: looseInput(tool.input),
        outputSchema: tool.output,
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly, openWorldHint: false },
      },
      async (args, extra) => {
        const started = performance.now();
        let result: CallToolResult;
        let outcome = 'ok';
        try {
          result = await call(tool, args, context, extra.signal);
          const failed = result.structuredContent?.['error'] as { code?: string } | undefined;
          if (result.isError) outcome = `error ${failed?.code ?? ''}`;
        } catch (error) {
          result = toolError(error, context.options.maxChars);
          const { code } = serializeError(error);
          outcome = extra.signal.aborted ? 'cancelled by the client' : `error ${code}`;
          if (code === 'INTERNAL' && !extra.signal.aborted)
            setup.log(`${tool.name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        }
        setup.log(`${tool.name} ${outcome} ${Math.round(performance.now() - started)} ms`);
        return result;
      },
    );
  }
  return { server, context };
}
