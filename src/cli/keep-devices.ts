import type { InputRequest } from '../core/actions/engine';
import { askingAbout, keepDevices, type InputAsker } from '../core/actions/keep-devices';
import { SafetyGate } from '../core/agent/safety';
import { terminalDecider } from './approval';
import type { CommandContext } from './context';

type Values = CommandContext['values'];

/**
 * `--keep-devices`: the CLI's "Never take my pointer or keyboard". The engine's hook for it,
 * or nothing when the flag is off (the engine then never asks).
 */
export function askBeforeInputFor(values: Values): { askBeforeInput?: (request: InputRequest) => Promise<void> } {
  if (values['keep-devices'] !== true) return {};
  return { askBeforeInput: (request) => keepDevices({ keepDevices: true }, request) };
}

/**
 * For `act`, which has no agent and no gate of its own: each synthetic input step is put to the
 * user on the terminal's confirm prompt, as itself (the element and the text or keys), through
 * the same request an agent's gate would make. Without a terminal the prompt denies.
 */
export function terminalInputAsker(context: CommandContext): InputAsker {
  const gate = new SafetyGate('confirm-risky');
  const decide = terminalDecider(context.io);
  return async (input) => {
    const outcome = await gate.checkInput({ askId: 'act', callId: 'act-1', tool: 'act' }, input, context.platform);
    if (outcome.kind === 'run') return true;
    return (await decide(outcome.request)) !== 'deny';
  };
}

/** Runs `work` with the terminal answering for its input steps when --keep-devices is on. */
export function withTerminalAsker<T>(context: CommandContext, work: () => Promise<T>): Promise<T> {
  return context.values['keep-devices'] === true ? askingAbout(terminalInputAsker(context), work) : work();
}
