import { ActionEngine } from '../core/actions/engine';
import { keepDevices } from '../core/actions/keep-devices';
import type { Platform } from '../core/platform/types';
import { createRuntime, type Runtime } from '../core/runtime/runtime';
import { BoundedStdioTransport } from './bounded-stdio';
import type { McpOptions } from './options';
import { createMcpServer, toolsFor } from './server';

export interface StdioServerIo {
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Injected by tests; otherwise the runtime assembles one for this OS on the first tool call. */
  platform?: Platform;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/**
 * Serves MCP on stdin/stdout until the client closes stdin. Stdout carries only protocol
 * messages; every log line goes to stderr.
 */
export async function runStdioServer(options: McpOptions, io: StdioServerIo): Promise<number> {
  const log = (line: string): void => io.stderr(`deskpilot mcp: ${line}`);
  let runtime: Runtime | undefined;
  const { server } = createMcpServer({
    options,
    log,
    // The server makes this once (it retries after a failure); the platform is the runtime's unless a test brings one.
    createCore: async () => {
      runtime ??= await createRuntime({
        env: io.env,
        notify: log,
        engine: (platform) => mcpEngine(platform, options),
        ...(io.platform === undefined ? {} : { platform: io.platform }),
      });
      const { platform, engine, docs } = runtime;
      return { platform, engine, ...(docs === undefined ? {} : { docs }) };
    },
  });
  const stdin = io.stdin ?? process.stdin;
  const transport = new BoundedStdioTransport(stdin, io.stdout ?? process.stdout, { log });
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  // The transport does not notice a closed stdin by itself; the client closing it is how a session ends.
  const end = (): void => void server.close();
  stdin.once('end', end);
  stdin.once('close', end);
  server.server.onerror = (error) => log(`protocol error: ${error.message}`);
  await server.connect(transport);
  const tools = toolsFor(options)
    .map((tool) => tool.mcpName ?? tool.name)
    .join(', ');
  const limits = [
    `max ${options.maxChars} characters a result`,
    options.readOnly ? 'read-only' : '',
    options.apps === undefined ? '' : `apps: ${options.apps.join(', ')}`,
    options.keepDevices === true ? 'never takes the pointer or keyboard' : '',
  ];
  log(`serving on stdio; tools: ${tools}; ${limits.filter((part) => part !== '').join('; ')}`);
  await closed;
  stdin.off('end', end);
  stdin.off('close', end);
  await runtime?.close();
  log('closed');
  return 0;
}

/** The server's engine; with --keep-devices, input steps are refused, since no one can be asked (keepDevices). */
export function mcpEngine(platform: Platform, options: McpOptions): ActionEngine {
  if (options.keepDevices !== true) return new ActionEngine({ platform });
  return new ActionEngine({ platform, askBeforeInput: (request) => keepDevices({ keepDevices: true }, request) });
}
