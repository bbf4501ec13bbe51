import type { AgentToolCall } from '../../shared/agent-events';
import { withFailure } from '../tools/failure';
import type { ToolContext, ToolResult } from '../tools/types';
import { abortable } from './abortable';
import { imagesNotSent, type AgentCore, type AskState } from './agent-core';
import { quoteToolResult } from './context-message';
import type { ActionLedger } from './end-state';
import { guardedCall } from './guarded-call';
import type { AskSafetyState } from './safety/gate';
import { imagesMessage, imagesNotShown, type ToolImages } from './tool-images';
import { argumentObject } from './tool-registry/registry';

/** What one ask's rounds share: the tools' context, the names used, the ledger of actions, what the gate saw. */
export interface RoundState {
  context: ToolContext;
  /** The call running now: its tool_log lines name it. */
  current: { callId: string };
  toolsUsed: Set<string>;
  ledger: ActionLedger;
  safety: AskSafetyState;
}

/** A round that ran to its end: the last call whose images went to the model, if any did. */
export type RoundEnd = { stopped: false; imagesFrom: string | undefined } | { stopped: true };

/**
 * Runs one turn's tool calls in order, each through the gate, and answers each with one tool
 * message. A stop between calls closes the round with "not run" for the rest; images from the
 * round follow all its tool messages, as an assistant's tool_calls must be answered first.
 */
export async function runToolRound(core: AgentCore, ask: AskState, calls: readonly AgentToolCall[], state: RoundState): Promise<RoundEnd> {
  const { signal, askId } = ask;
  const { conversation, options } = core;
  const shown: ToolImages[] = [];
  let imagesFrom: string | undefined;
  for (const [index, call] of calls.entries()) {
    if (signal.aborted) return stopRound(core, calls.slice(index));
    state.current.callId = call.id;
    state.toolsUsed.add(call.name);
    let result: ToolResult;
    // Before the call: ui_focus_app moves the target, and the call acted on the old one (or the pid it named).
    const named = argumentObject(call.arguments)['pid'];
    let actedOn = typeof named === 'number' ? named : state.context.targetPid;
    try {
      const guarded = await abortable(guardedCall(core, ask, call, state.context, state.safety), signal);
      // Every failed result leaves the agent with its typed error, whichever way it failed.
      result = withFailure(guarded.result);
      actedOn = guarded.pid ?? actedOn;
    } catch (error) {
      // The executor only throws on abort; anything else would be a bug, and the model still needs a result.
      if (!signal.aborted) throw error;
      return stopRound(core, calls.slice(index));
    }
    // Images stay out of events: they travel to the window, and people see the message.
    const { images = [], ...plain } = result;
    core.emit({ type: 'tool_result', askId, callId: call.id, name: call.name, ...plain });
    state.ledger.record(call.name, options.tools.tool(call.name), call.arguments, actedOn, result);
    // Events keep the plain message for people; the model gets it quoted as data.
    let content = quoteToolResult(call.name, result.message);
    if (images.length > 0) {
      const notSent = imagesNotSent(core);
      if (notSent !== undefined) content += `\n${imagesNotShown(images.length, notSent)}`;
      else {
        shown.push({ tool: call.name, images });
        imagesFrom = call.id;
      }
    }
    conversation.push({ role: 'tool', tool_call_id: call.id, content });
  }
  if (signal.aborted) return { stopped: true };
  if (shown.length > 0) conversation.push(imagesMessage(shown));
  return { stopped: false, imagesFrom };
}

function stopRound(core: AgentCore, notRun: readonly AgentToolCall[]): RoundEnd {
  core.conversation.closeRound(notRun);
  return { stopped: true };
}
