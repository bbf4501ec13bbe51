import type { AgentEvent } from '../shared/agent-events';
import type { HostSettings } from '../shared/host-protocol';
import type { Agent, AgentOptions } from '../core/agent';
import type { ApprovalDecider } from '../core/agent/safety';
import { OpenAICompatibleProvider, type Environment } from '../core/agent/provider';
import { providerSettings } from '../core/provider-config/provider-settings';
import type { Runtime } from '../core/runtime/runtime';
import type { Tool } from '../core/tools/types';

/** An object type's own keys, without an index signature's `string`. */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

export interface AgentParts {
  /** The host's core: its platform, recording engine and documentation search. */
  runtime: Runtime;
  /** Deskpilot's own processes: main and this host. The agent never reads or acts on them. */
  ownPids: readonly number[];
  /** Read on every model call, so a settings message applies to the next request. */
  settings: () => HostSettings;
  env: () => Environment;
  fetch?: typeof globalThis.fetch;
  onEvent: (event: AgentEvent) => void;
  decide: ApprovalDecider;
  /** The tools of the user's MCP servers, fetched on every ask. */
  externalTools?: () => Promise<Tool[]>;
}

/**
 * The same Agent the CLI's `ask` builds (the runtime's: built-in tools, engine, platform,
 * documentation search), with the provider from the app's settings and approvals answered by
 * the user in the chat window instead of on a terminal. The policy and the `agent` settings
 * are fixed per Agent, so a change builds a new one (see AutomationHost).
 */
export function buildAgent(parts: AgentParts): Agent {
  const provider = new OpenAICompatibleProvider({
    settings: () => providerSettings(parts.settings()),
    env: parts.env,
    ...(parts.fetch === undefined ? {} : { fetch: parts.fetch }),
  });
  // The Agent options the user sets (settings-schema.ts's `agent` group); a key that is not one fails to compile here.
  const chosen: Pick<AgentOptions, NamedKeys<HostSettings['agent']>> = parts.settings().agent;
  return parts.runtime.agent({
    ...chosen,
    provider,
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
    ...(parts.externalTools === undefined ? {} : { externalTools: parts.externalTools }),
  });
}
