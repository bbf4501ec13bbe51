import { ActionEngine } from '../actions/engine';
import { Agent, type AgentOptions } from '../agent';
import { createToolRegistry } from '../agent/tool-registry';
import { docsServiceFromEnv } from '../doc-search/endpoint';
import { DocsService, type DocsServiceOptions } from '../doc-search/service';
import type { McpServers } from '../mcp-client/config';
import { McpToolbox, type McpToolboxOptions } from '../mcp-client/toolbox';
import type { Platform } from '../platform/types';
import { assemblePlatform, type PlatformOptions } from './platform';

export interface CoreOptions<E extends ActionEngine = ActionEngine> {
  env: Record<string, string | undefined>;
  /** The engine over the platform; a plain ActionEngine by default. The host's records what it does. */
  engine?: (platform: Platform) => E;
  /**
   * Documentation search: these options (the host's, which follow its settings), `false` for
   * none, or by default the headless programs' (index in the data folder, folders from the environment).
   */
  docs?: DocsServiceOptions | false;
  /** Where documentation search tells its notices (a corrupt index rebuilt), for the default docs. */
  notify?: (text: string) => void;
}

/** The Agent's options the runtime does not fill: what the program says (provider, events, policy, …). */
export type AgentParts = Omit<AgentOptions, 'engine' | 'platform' | 'docs' | 'tools'> & Partial<Pick<AgentOptions, 'engine' | 'tools'>>;

/** The core as a program runs it: one platform, one engine over it, documentation search, and factories for MCP toolboxes and Agents. */
export interface Runtime<E extends ActionEngine = ActionEngine> {
  readonly platform: Platform;
  readonly engine: E;
  readonly docs: DocsService | undefined;
  /** The user's MCP servers as the agent's tools; each server starts on first use. The caller closes it. */
  toolbox(servers: McpServers, options?: McpToolboxOptions): McpToolbox;
  /**
   * An Agent on this runtime's platform, engine and documentation search, with the built-in
   * tools unless `parts.tools` says otherwise (workflow recovery's read-only ones) and this
   * engine unless `parts.engine` brings one (a CLI run that records).
   */
  agent(parts: AgentParts): Agent;
  /**
   * Closes the platform when the runtime assembled it. Documentation search is left open: its
   * background embedding finishes before a headless program exits, as it always has.
   */
  close(): Promise<void>;
}

/** The runtime over a platform already assembled (the host gets its own from its entry, tests bring the fake). */
export function runtimeOn<E extends ActionEngine>(
  platform: Platform,
  options: CoreOptions<E> & { engine: (platform: Platform) => E },
  owned?: boolean,
): Runtime<E>;
export function runtimeOn(platform: Platform, options: CoreOptions, owned?: boolean): Runtime;
export function runtimeOn(platform: Platform, options: CoreOptions, owned = false): Runtime {
  const engine = options.engine?.(platform) ?? new ActionEngine({ platform });
  const docs =
    options.docs === false
      ? undefined
      : options.docs === undefined
        ? docsServiceFromEnv(options.env, options.notify ?? (() => undefined))
        : new DocsService(options.docs);
  return {
    platform,
    engine,
    docs,
    toolbox: (servers, toolboxOptions) => new McpToolbox(servers, toolboxOptions),
    agent: (parts) =>
      new Agent({
        tools: createToolRegistry(),
        engine,
        platform,
        ...(docs === undefined ? {} : { docs }),
        ...parts,
      }),
    close: async () => {
      if (owned) await platform.close();
    },
  };
}

export interface RuntimeOptions extends CoreOptions, PlatformOptions {
  /** process.platform by default; DESKPILOT_PLATFORM in `env` wins. */
  os?: string;
  /** A platform made elsewhere (tests inject the fake); it stays its owner's to close. */
  platform?: Platform;
}

/**
 * The one place the host, the CLI and the MCP server assemble the core: this OS's platform with
 * screen text composed on top (see assemblePlatform), the engine, documentation search, and the
 * factories for the user's MCP servers and for Agents.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  if (options.platform !== undefined) return runtimeOn(options.platform, options);
  const platform = await assemblePlatform(options.os ?? process.platform, options.env, options.hidePids === undefined ? {} : { hidePids: options.hidePids });
  return runtimeOn(platform, options, true);
}
