import type { DoneReason } from '../../shared/agent-events';
import type { ToolContext } from '../tools/types';
import type { AgentCore, AskState } from './agent-core';
import type { ActionLedger } from './end-state';
import { modelTurn } from './model-turn';
import type { ProviderMessage } from './provider/types';
import type { AskSafetyState } from './safety/gate';
import { agentText } from './text/agent-text';
import { runToolRound, type RoundState } from './tool-round';

/** How the tool loop ended, before the end-state check and the `done` event. */
export interface Outcome {
  text: string;
  reason: DoneReason;
}

export const STOPPED: Outcome = { text: '', reason: 'stopped' };

/**
 * The streaming tool-calling loop of one ask: model → tools → model …, until the model answers
 * without tools, a stop, or the iteration limit (which ends the ask with a message).
 */
export async function toolLoop(
  core: AgentCore,
  ask: AskState,
  request: () => ProviderMessage[],
  toolsUsed: Set<string>,
  ledger: ActionLedger,
  safety: AskSafetyState,
): Promise<Outcome> {
  const { options, conversation } = core;
  const current = { callId: '' };
  const context: ToolContext = {
    engine: options.engine,
    platform: options.platform,
    targetPid: ask.target.pid,
    ownPids: core.ownPids,
    // The model reads ids first on every line: brackets would only cost tokens.
    lineStyle: 'compact',
    signal: ask.signal,
    clock: core.clock,
    log: (text) => core.emit({ type: 'tool_log', askId: ask.askId, callId: current.callId, text }),
    ...(options.docs === undefined ? {} : { docs: options.docs }),
  };
  const state: RoundState = { context, current, toolsUsed, ledger, safety };
  /** The last call whose images went to the model: a refusal of them is noted under it. */
  let imagesFrom = '';
  for (let iteration = 1; iteration <= core.maxIterations; iteration += 1) {
    const turn = await modelTurn(core, ask, iteration, request, imagesFrom);
    if (turn === 'stopped') return STOPPED;
    core.emit({ type: 'ai_response', askId: ask.askId, ...turn });
    if (turn.toolCalls.length === 0) {
      conversation.push({ role: 'assistant', content: turn.text });
      return { text: turn.text, reason: 'answered' };
    }
    conversation.push({
      role: 'assistant',
      content: turn.text === '' ? null : turn.text,
      tool_calls: turn.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    });
    const round = await runToolRound(core, ask, turn.toolCalls, state);
    if (round.stopped) return STOPPED;
    imagesFrom = round.imagesFrom ?? imagesFrom;
  }
  const text = agentText(ask.language)('answers.iterationLimit', { count: core.maxIterations });
  conversation.push({ role: 'assistant', content: text });
  return { text, reason: 'iteration_limit' };
}
