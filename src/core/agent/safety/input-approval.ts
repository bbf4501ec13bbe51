import type { InputAsker } from '../../actions/keep-devices';
import type { ToolContext } from '../../tools/types';
import type { ApprovalDecider, ApprovalRequest } from './types';
import type { SafetyGate } from './gate';

/** The call an input step happens inside: its approval is filed under it. */
export interface InputCall {
  askId: string;
  callId: string;
  tool: string;
}

/**
 * The asker an agent installs around one tool call (askingAbout): each synthetic input step is
 * put to the user through the conversation's gate (so "allow for this app" is remembered) and
 * its decider, and announced with `announce` as every approval request is.
 */
export function agentInputAsker(parts: {
  gate: SafetyGate;
  call: InputCall;
  context: ToolContext;
  decide: ApprovalDecider;
  announce: (request: ApprovalRequest) => void;
}): InputAsker {
  return async (input) => {
    const outcome = await parts.gate.checkInput(parts.call, input, parts.context.platform);
    if (outcome.kind === 'run') return true;
    parts.announce(outcome.request);
    const decision = await parts.decide(outcome.request);
    parts.context.signal.throwIfAborted();
    if (decision === 'deny') return false;
    parts.gate.grant(outcome, decision);
    return true;
  };
}
