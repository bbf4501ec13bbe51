/** Test helper: an Agent over a (usually fake) platform, answered by a FakeProvider, its events collected. Used only by tests. */
import type { AgentEvent } from '../../shared/agent-events';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import type { Platform } from '../platform/types';
import { Agent, type AgentOptions } from './agent';
import { FakeProvider, type ScriptedTurn } from './fake-provider';
import { createToolRegistry } from './tool-registry/registry';

export interface ScriptedAgentSetup extends Partial<AgentOptions> {
  platform: Platform;
  /** Every event the Agent emits is pushed here. */
  events: AgentEvent[];
}

/** The built-in tools over a fresh engine (unless `engine` is given); any AgentOptions field overrides. */
export function scriptedAgent(turns: ScriptedTurn[], setup: ScriptedAgentSetup): { agent: Agent; provider: FakeProvider } {
  const { platform, events, ...options } = setup;
  const provider = (options.provider as FakeProvider | undefined) ?? new FakeProvider(turns);
  const clock = options.clock ?? new FakeClock();
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
