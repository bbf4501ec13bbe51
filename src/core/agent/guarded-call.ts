import type { AgentToolCall } from '../../shared/agent-events';
import type { ErrorCode } from '../../shared/errors';
import { gistOf } from '../tools/gist';
import type { ToolContext, ToolResult } from '../tools/types';
import { abortable } from './abortable';
import type { AgentCore, AskState } from './agent-core';
import type { AskSafetyState } from './safety/gate';
import { agentInputAsker } from './safety/input-approval';
import type { ApprovalDecider, ApprovalRequest } from './safety/types';
import { askingAbout } from '../actions/keep-devices';

export interface GuardedResult {
  result: ToolResult;
  /** The app the gate resolved the call to, when it names one: the app approved is the app acted on. */
  pid?: number | undefined;
}

/**
 * One tool call through the safety gate: a refusal or a denial is the tool's result, so the
 * model reads why and the loop goes on. Only calls of registered tools are checked; an unknown
 * name gets the registry's own message.
 */
export async function guardedCall(core: AgentCore, ask: AskState, call: AgentToolCall, context: ToolContext, safety: AskSafetyState): Promise<GuardedResult> {
  const { askId } = ask;
  const { tools } = core.options;
  const definition = tools.tool(call.name);
  // Announced once the gate has read the call, so text bound for a secret field is shown masked,
  // in its arguments and in the words people read (the gist is made from the masked ones).
  const announce = (shown: string | undefined): void => {
    const args = shown ?? call.arguments;
    if (!context.signal.aborted)
      core.emit({ type: 'tool_call', askId, callId: call.id, name: call.name, arguments: args, gist: gistOf(definition, call.name, args) });
  };
  let runArguments = call.arguments;
  let pid: number | undefined;
  if (definition === undefined) announce(undefined);
  else {
    const outcome = await core.gate.check({ askId, callId: call.id, tool: call.name, definition, rawArguments: call.arguments }, context, safety);
    announce(outcome.shown);
    if (outcome.kind === 'refuse') return { result: outcome.result };
    // The call runs as the gate resolved and judged it: the same app, ids and keys.
    runArguments = outcome.runArguments ?? call.arguments;
    pid = outcome.pid;
    if (outcome.kind === 'ask') {
      const { request } = outcome;
      core.emit({ type: 'approval_request', ...request });
      const decide = core.options.decide;
      if (decide === undefined) {
        return {
          result: {
            success: false,
            message: `DENIED: this action needs the user's approval (${request.reason}) and nobody can approve it here; ask the user or choose another way`,
            data: { code: 'DENIED' satisfies ErrorCode, approvalId: request.id },
          },
        };
      }
      const decision = await abortable(decide(request), context.signal);
      context.signal.throwIfAborted();
      if (decision === 'deny') {
        return {
          result: {
            success: false,
            message: `DENIED: the user declined ${call.name} (${request.reason}); do not retry it: ask the user or choose another way`,
            data: { code: 'DENIED' satisfies ErrorCode, approvalId: request.id },
          },
        };
      }
      core.gate.grant(outcome, decision);
    }
  }
  const run = (): Promise<ToolResult> => tools.call(call.name, runArguments, context);
  // "Never take my pointer or keyboard": input steps inside this call are put to the user, each as itself.
  const decider = core.options.decide;
  const decide: ApprovalDecider | undefined = decider === undefined ? undefined : (request) => abortable(decider(request), context.signal);
  const announceInput = (request: ApprovalRequest): void => core.emit({ type: 'approval_request', ...request });
  const inputCall = { askId, callId: call.id, tool: call.name };
  const result =
    decide === undefined
      ? await run()
      : await askingAbout(agentInputAsker({ gate: core.gate, call: inputCall, context, decide, announce: announceInput }), run);
  if (result.success && definition !== undefined) await core.gate.noteRead(definition, call.arguments, context, safety);
  return { result, pid };
}
