import type { AgentEvent } from '../shared/agent-events';
import type { HostSettings } from '../shared/host-protocol';
import type { ActionEngine } from '../core/actions/engine';
import { Agent, type AgentOptions } from '../core/agent';
import type { ApprovalDecider } from '../core/agent/safety';
import { OpenAICompatibleProvider, type Environment } from '../core/agent/provider';
import { providerSettings } from '../core/provider-config/provider-settings';
import { createToolRegistry } from '../core/agent/tools';
import type { DocsService } from '../core/docs/service';
import type { Platform } from '../core/platform/types';
import type { Tool } from '../core/tools/types';

/** An object type's own keys, without an index signature's `string`. */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

export interface AgentParts {
  platform: Platform;
  engine: ActionEngine;
  /** Deskpilot's own processes: main and this host. The agent never reads or acts on them. */
  ownPids: readonly number[];
  /** Read on every model call, so a settings message applies to the next request. */
  settings: () => HostSettings;
  env: () => Environment;
  fetch?: typeof globalThis.fetch;
  onEvent: (event: AgentEvent) => void;
  decide: ApprovalDecider;
  docs?: DocsService;
  /** The tools of the user's MCP servers, fetched on every ask. */
  externalTools?: () => Promise<Tool[]>;
}

/**
 * The same Agent the CLI's `ask` builds (provider, built-in tools, engine, platform), with
 * approvals answered by the user in the chat window instead of on a terminal. The policy and
 * the `agent` settings are fixed per Agent, so a change builds a new one (see AutomationHost).
 */
export function buildAgent(parts: AgentParts): Agent {
  const provider = new OpenAICompatibleProvider({
    settings: () => providerSettings(parts.settings()),
    env: parts.env,
    ...(parts.fetch === undefined ? {} : { fetch: parts.fetch }),
  });
  // The Agent options the user sets (settings-schema.ts's `agent` group); a key that is not one fails to compile here.
  const chosen: Pick<AgentOptions, NamedKeys<HostSettings['agent']>> = parts.settings().agent;
  return new Agent({
    ...chosen,
    provider,
    tools: createToolRegistry(),
    engine: parts.engine,
    platform: parts.platform,
    onEvent: parts.onEvent,
    approvalPolicy: parts.settings().approvalPolicy,
    // Read at each call, so an allowance given on a card or revoked in Settings applies at once.
    toolAllowances: () => parts.settings().toolAllowances,
    decide: parts.decide,
    ownPids: parts.ownPids,
    // Main resolved the setting with DESKPILOT_VISION already; read at each call, so a change applies at once.
    vision: () => parts.settings().vision,
    // Read on every ask, so a language changed in Settings applies to the next question.
    languages: () => ({ ui: parts.settings().language, answer: parts.settings().answerLanguage }),
    ...(parts.docs === undefined ? {} : { docs: parts.docs }),
    ...(parts.externalTools === undefined ? {} : { externalTools: parts.externalTools }),
  });
}
