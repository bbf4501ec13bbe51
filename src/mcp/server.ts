import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ValidationError, serializeError } from '../shared/errors';
import type { ActionEngine } from '../core/actions/engine';
import type { Platform } from '../core/platform/types';
import { AppAllowList } from '../core/tools/allow-list';
import { fitBudget, prepareCall, runPrepared, unknownToolResult } from '../core/tools/execute';
import { builtinTools } from '../core/tools/builtin';
import type { DocsService } from '../core/doc-search/service';
import { isReadOnly, type AnyTool, type ToolContext, type ToolResult } from '../core/tools/types';
import { serverInstructions } from './instructions';
import type { McpOptions } from './options';
import { toolError } from './tool-error';
import { workflowMcpTools } from './workflow-tool';

export const SERVER_NAME = 'deskpilot';
export const SERVER_VERSION = '0.1.0';

export interface Core {
  platform: Platform;
  engine: ActionEngine;
  /** Documentation search (docs_search); the tool says it is not set up without it. */
  docs?: DocsService;
}

export interface ServerSetup {
  options: McpOptions;
  /** Makes the platform and engine on the first tool call; a failure is that call's error, and the next call tries again. */
  createCore: () => Promise<Core>;
  /** One line per tool call and per problem; stdout belongs to the protocol. */
  log: (line: string) => void;
}

/**
 * The tools this server lists: the core's definitions, less those that only mean something
 * inside a conversation, and with --read-only every tool that acts, so a model is never offered one.
 */
export function toolsFor(options: McpOptions): readonly AnyTool[] {
  return [...builtinTools(), ...workflowMcpTools()].filter((tool) => tool.scope !== 'conversation' && (isReadOnly(tool) || !options.readOnly));
}

/**
 * What the SDK sees as a tool's input schema: it accepts any object, so the tool's own schema
 * decides and a bad argument comes back as a VALIDATION tool result rather than the SDK's
 * protocol-level InvalidParams text. Its JSON Schema, which clients show the model, is the strict one's.
 */
function looseInput(strict: z.ZodType): z.ZodObject {
  const { $schema: _schema, ...json } = z.toJSONSchema(strict, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return z.looseObject({}).meta(json);
}

function lazy<T>(create: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= create().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

/**
 * The executor's result as MCP content: the text, the data as structured content, an image beside
 * them, and a failure's typed error in `_meta`, as a refused call has it (tool-error.ts). The
 * executor (core/tools/execute.ts) already fitted all of it to the budget.
 */
function toCallResult(result: ToolResult): CallToolResult {
  const data = typeof result.data === 'object' && result.data !== null && !Array.isArray(result.data) ? result.data : undefined;
  // Structured content is the shape the tool promised, and clients check it against the output
  // schema: the data of a refusal or a throw is only its error, which goes in `_meta` instead.
  const errorOnly = data !== undefined && Object.keys(data).length === 1 && 'error' in data;
  const structured = data === undefined || errorOnly ? {} : { structuredContent: data as Record<string, unknown> };
  // A window image goes as MCP image content beside the text (ui_screenshot); the text budget does not cut it.
  const images = (result.images ?? []).map((image) => ({ type: 'image' as const, data: image.data, mimeType: image.mimeType }));
  const failed = result.error === undefined ? {} : { isError: true, _meta: { 'deskpilot/error': result.error } };
  return { content: [{ type: 'text', text: result.message }, ...images], ...structured, ...failed };
}

export function createMcpServer(setup: ServerSetup): { server: McpServer } {
  const core = lazy(setup.createCore);
  const allowList = new AppAllowList(setup.options.apps);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: serverInstructions(setup.options.readOnly), capabilities: { tools: {} } },
  );
  const handlers = new Map<string, (args: unknown, extra: { signal: AbortSignal }) => Promise<CallToolResult>>();
  // Said once, in the first result after the desktop session was found, and in the log.
  let sessionTold = false;
  const tellSession = (platform: Platform, result: CallToolResult): CallToolResult => {
    const found = platform.discovered;
    if (found === undefined || found.length === 0) return result;
    const meta = { ...result._meta, 'deskpilot/session': found };
    if (sessionTold) return { ...result, _meta: meta };
    sessionTold = true;
    const line = sessionLine(found);
    setup.log(line);
    const [first, ...rest] = result.content;
    const content =
      first?.type === 'text' ? [{ ...first, text: `${first.text}\n(${line})` }, ...rest] : [{ type: 'text' as const, text: `(${line})` }, ...result.content];
    return { ...result, content, _meta: meta };
  };
  for (const tool of toolsFor(setup.options)) {
    const readOnly = isReadOnly(tool);
    const name = tool.mcpName ?? tool.name;
    const logInternal = (error: unknown): void => {
      if (serializeError(error).code === 'INTERNAL')
        setup.log(`${name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    };
    const handler = async (args: unknown, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
      const started = performance.now();
      let result: CallToolResult;
      let outcome = 'ok';
      let made: Platform | undefined;
      try {
        // Arguments are checked before anything else, so a bad call says so even on a machine with no desktop.
        const prepared = prepareCall(tool, { value: args });
        if (!prepared.ok) {
          result = toCallResult(fitBudget(prepared.result, setup.options.maxChars));
        } else {
          const { platform, engine, docs } = await core();
          made = platform;
          // MCP clients are not in the user's app, so there is no default target: every call names its app.
          const context: ToolContext = {
            platform,
            engine,
            targetPid: undefined,
            allowList,
            maxChars: setup.options.maxChars,
            signal: extra.signal,
            log: () => undefined,
            ...(docs === undefined ? {} : { docs }),
          };
          result = tellSession(platform, toCallResult(await runPrepared(tool, prepared, context, { onThrow: logInternal })));
        }
        const code = (result._meta?.['deskpilot/error'] as { code?: string } | undefined)?.code;
        if (result.isError) outcome = `error ${code ?? ''}`;
      } catch (error) {
        result = toolError(error, setup.options.maxChars);
        if (made !== undefined) result = tellSession(made, result);
        const { code } = serializeError(error);
        outcome = extra.signal.aborted ? 'cancelled by the client' : `error ${code}`;
        if (!extra.signal.aborted) logInternal(error);
      }
      setup.log(`${name} ${outcome} ${Math.round(performance.now() - started)} ms`);
      return result;
    };
    handlers.set(name, handler);
    server.registerTool(
      name,
      {
        ...(tool.title === undefined ? {} : { title: tool.title }),
        description: tool.description,
        inputSchema: looseInput(tool.schema),
        ...(tool.output === undefined ? {} : { outputSchema: tool.output }),
        annotations: { readOnlyHint: readOnly, destructiveHint: !readOnly, openWorldHint: false },
      },
      handler,
    );
  }
  // The SDK answers an unknown tool with bare text ("Tool X not found"); ours is a coded tool error
  // that names the tool meant, so the dispatch is ours and the SDK keeps listing the tools.
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const handler = handlers.get(request.params.name);
    if (handler !== undefined) return handler(request.params.arguments ?? {}, extra);
    setup.log(`unknown tool ${JSON.stringify(request.params.name.slice(0, 64))} refused`);
    const refused = readOnlyRefusal(request.params.name, setup.options);
    return refused === undefined
      ? toCallResult(fitBudget(unknownToolResult(request.params.name, [...handlers.keys()]), setup.options.maxChars))
      : toolError(refused, setup.options.maxChars);
  });
  acceptNullArguments(server);
  return { server };
}

/** Which desktop-session values were found, and how, in one line. */
function sessionLine(found: NonNullable<Platform['discovered']>): string {
  return `found the desktop session: ${found.map((each) => `${each.name}=${each.value} (from ${each.how})`).join('; ')}`;
}

/** An acting tool called on a --read-only server: it exists, and is left out on purpose. */
function readOnlyRefusal(name: string, options: McpOptions): ValidationError | undefined {
  if (!options.readOnly) return undefined;
  const tool = builtinTools().find((each) => (each.mcpName ?? each.name) === name && each.scope !== 'conversation');
  if (tool === undefined || isReadOnly(tool)) return undefined;
  return new ValidationError(`'${name}' is not offered: this server was started with --read-only, so it only reads`, {
    data: { tool: name, reason: 'read_only' },
  });
}

/**
 * Some clients send `"arguments": null` for a tool without parameters, which the SDK refuses
 * with a JSON-RPC internal error before any handler runs. They mean `{}`, so each incoming
 * tools/call is mended on its way in, on whatever transport the server is connected to.
 */
function acceptNullArguments(server: McpServer): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport): Promise<void> => {
    await connect(transport);
    const receive = transport.onmessage;
    if (receive === undefined) return;
    transport.onmessage = (message, extra) => {
      const params = (message as { method?: unknown; params?: { arguments?: unknown } }).params;
      if ((message as { method?: unknown }).method === 'tools/call' && params !== null && typeof params === 'object' && params.arguments === null) {
        params.arguments = {};
      }
      receive(message, extra);
    };
  };
}
