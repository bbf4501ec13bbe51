/** Test helper: an Agent over a (usually fake) platform, answered by a ScriptedProvider, its events collected. Used only by tests. */
import type { AgentEvent } from '../../shared/agent-events';
import { ActionEngine } from '../actions/engine';
import { ManualClock } from '../clock';
import type { Platform } from '../platform/types';
import { Agent, type AgentOptions } from './agent';
import { ScriptedProvider, type ScriptedTurn } from './scripted-provider';
import { createToolRegistry } from './tools/builtin';

export interface ScriptedAgentSetup extends Partial<AgentOptions> {
  platform: Platform;
  /** Every event the Agent emits is pushed here. */
  events: AgentEvent[];
}

/** The built-in tools over a fresh engine (unless `engine` is given); any AgentOptions field overrides. */
export function scriptedAgent(turns: ScriptedTurn[], setup: ScriptedAgentSetup): { agent: Agent; provider: ScriptedProvider } {
  const { platform, events, ...options } = setup;
  const provider = (options.provider as ScriptedProvider | undefined) ?? new ScriptedProvider(turns);
  const clock = options.clock ?? new ManualClock();
  const agent = new Agent({
    provider,
    tools: createToolRegistry(),
    engine: new ActionEngine({ platform, clock }),
    platform,
    clock,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { agent, provider };
}
