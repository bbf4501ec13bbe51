import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { DeskpilotError } from '../../shared/errors';
import { systemClock, type Clock } from '../clock';
import type { ToolResult } from '../tools/types';
import type { McpNotice, McpServerConfig } from '../../shared/mcp-servers';
import { toolResultOf } from './tool-result';
import { clientSdk, type ClientSdk } from './sdk';

/** A notice in English, for the CLI's stderr and logs. */
export function describeMcpNotice(notice: McpNotice): string {
  if (notice.kind === 'started') return `MCP server ${notice.server} started with ${notice.tools} tools`;
  if (notice.kind === 'stopped') return `MCP server ${notice.server} stopped; it is started again when its tools are next used`;
  if (notice.kind === 'limited') return `MCP server ${notice.server}: ${notice.problem}`;
  return `MCP server ${notice.server} could not start: ${notice.problem}`;
}

export interface McpServerOptions {
  /** Most time one call may take. */
  callTimeoutMs?: number;
  /** Most time starting the server and listing its tools may take. */
  startTimeoutMs?: number;
  /** Something the user should know: a server started, stopped, or could not start. */
  onNotice?: (notice: McpNotice) => void;
  clock?: Clock;
  /** Injected by tests; the stdio or HTTP transport of `config` otherwise. */
  transport?: (config: McpServerConfig) => Transport;
  /** A burst of tools/list_changed is read once, this long after the last of them. */
  listChangedDebounceMs?: number;
}

const DEFAULT_LIST_CHANGED_DEBOUNCE_MS = 300;

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_START_TIMEOUT_MS = 20_000;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;
/** A problem is shown to the user and travels in a notice; an HTTP server may answer with a whole HTML page. */
const MAX_PROBLEM_CHARS = 300;
/** How long closing waits for an HTTP server to end its session. */
const TERMINATE_WAIT_MS = 1_000;

/** What went wrong, short, with the system's code when the message hides it (fetch's "fetch failed" is ECONNREFUSED). */
function problemOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
  const text = typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
  return text.length > MAX_PROBLEM_CHARS ? `${text.slice(0, MAX_PROBLEM_CHARS)}…` : text;
}

/**
 * An HTTP server that no longer knows our session (it restarted, or let the session expire)
 * answers 404 to it; the spec says to start a new session then, and the call did not run.
 */
function sessionGone(sdk: ClientSdk, error: unknown): boolean {
  return error instanceof sdk.StreamableHTTPError && error.code === 404;
}

function transportOf({ getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport }: ClientSdk, config: McpServerConfig): Transport {
  if ('url' in config) return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
  // The SDK's few safe variables (HOME, PATH, USER…), as Claude Desktop does, never this process's
  // whole environment: it may hold the model provider's key, which is not the server's business.
  const env = { ...getDefaultEnvironment(), ...config.env };
  return new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    env,
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'ignore',
  });
}

/**
 * One of the user's MCP servers, as the agent's tools see it. It starts on first use; its tool
 * list follows `tools/list_changed`; a call has a timeout and is cancelled (notifications/cancelled)
 * when the ask stops. A server that crashes fails the calls in flight with a typed error and is
 * started again on the next use, no sooner than its backoff allows.
 */
export class McpServer {
  readonly name: string;
  private readonly config: McpServerConfig;
  private readonly options: McpServerOptions;
  private readonly clock: Clock;
  private client: Client | undefined;
  /** Loaded by the first start: a server never used never loads the SDK (see sdk.ts). */
  private sdk: ClientSdk | undefined;
  private starting: Promise<Client> | undefined;
  private list: McpTool[] = [];
  private failures = 0;
  private retryAt = 0;
  private lastProblem = '';
  private closing = false;

  constructor(name: string, config: McpServerConfig, options: McpServerOptions = {}) {
    this.name = name;
    this.config = config;
    this.options = options;
    this.clock = options.clock ?? systemClock;
  }

  /** Its tools, starting the server first if it is not running. */
  async tools(): Promise<McpTool[]> {
    await this.connected();
    return this.list;
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal, again = true): Promise<ToolResult> {
    const client = await this.connected();
    // Set by the start that made the client.
    const sdk = this.sdk as ClientSdk;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, sdk.CallToolResultSchema, {
        signal,
        timeout: this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      });
      // Old servers answer with `toolResult` alone: text is all the model can take from it.
      return 'content' in result ? toolResultOf(result as CallToolResult) : { success: true, message: JSON.stringify(result.toolResult) };
    } catch (error) {
      if (signal.aborted) throw error;
      if (again && sessionGone(sdk, error) && this.client === client) {
        // Dropped before closing, so lost() does not count it as a crash: the server is there.
        this.client = undefined;
        await client.close().catch(() => undefined);
        return this.call(tool, args, signal, false);
      }
      throw this.callError(sdk, tool, error);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    // An HTTP server keeps a session until told (DELETE); a server that does not answer soon is not waited for.
    const transport = client?.transport;
    if (this.sdk !== undefined && transport instanceof this.sdk.StreamableHTTPClientTransport) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, TERMINATE_WAIT_MS)));
      await Promise.race([transport.terminateSession().catch(() => undefined), late]);
      clearTimeout(timer);
    }
    await client?.close().catch(() => undefined);
  }

  private callError(sdk: ClientSdk, tool: string, error: unknown): DeskpilotError {
    if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
      return new DeskpilotError('TIMEOUT', `the ${this.name} server did not answer ${tool} in time`, { cause: error, isRetryable: true });
    }
    return new DeskpilotError('TOOL_SERVER', `the ${this.name} server failed on ${tool}: ${problemOf(error)}`, { cause: error, isRetryable: true });
  }

  private connected(): Promise<Client> {
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<Client> {
    const now = this.clock.now();
    if (now < this.retryAt) {
      throw new DeskpilotError(
        'TOOL_SERVER',
        `the ${this.name} server is not running (${this.lastProblem}); it is tried again in ${Math.ceil((this.retryAt - now) / 1000)} s`,
        {
          isRetryable: true,
        },
      );
    }
    this.closing = false;
    const sdk = (this.sdk ??= await clientSdk());
    const client = new sdk.Client(
      { name: 'deskpilot', version: '1' },
      {
        listChanged: {
          tools: {
            // A server that announces changes in a burst (or without end) is listed once per quiet moment.
            debounceMs: this.options.listChangedDebounceMs ?? DEFAULT_LIST_CHANGED_DEBOUNCE_MS,
            onChanged: (error, tools) => {
              if (error === null && tools !== null) this.list = tools;
            },
          },
        },
      },
    );
    // Ignored until the client is ours (lost() checks): a failed start is reported below, once.
    client.onclose = () => this.lost(client);
    try {
      const transport = this.options.transport?.(this.config) ?? transportOf(sdk, this.config);
      await client.connect(transport, { timeout: this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS });
      this.list = (await client.listTools(undefined, { timeout: this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS })).tools;
    } catch (error) {
      await client.close().catch(() => undefined);
      this.backOff(problemOf(error));
      this.options.onNotice?.({ kind: 'failed', server: this.name, problem: this.lastProblem });
      throw new DeskpilotError('TOOL_SERVER', `the ${this.name} server could not start: ${this.lastProblem}`, { cause: error, isRetryable: true });
    }
    this.client = client;
    this.failures = 0;
    this.options.onNotice?.({ kind: 'started', server: this.name, tools: this.list.length });
    return client;
  }

  /** The server went away on its own (a crash, an exit): calls in flight fail, the next use restarts it. */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.closing) return;
    this.backOff('it stopped');
    this.options.onNotice?.({ kind: 'stopped', server: this.name });
  }

  private backOff(problem: string): void {
    this.lastProblem = problem;
    this.failures += 1;
    this.retryAt = this.clock.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.failures - 1));
  }
}
