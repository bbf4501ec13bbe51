import type { ApprovalDecider } from '../agent/safety';
import { SafetyGate } from '../agent/safety';
import { actionTool } from '../tools/action';
import type { ToolContext } from '../tools/types';
import type { InputAsker } from '../actions/keep-devices';

/** Why the safety rules stopped a step, or undefined when it may run. */
export type GateVerdict = { ok: true } | { ok: false; code: 'refused' | 'denied' | 'approval_needed'; message: string };

/**
 * The safety rules, through the agent's own gate, for replayed steps: each step is judged as
 * the ui_action call it is. Trusted workflows run with the `auto` policy, which still refuses
 * text into a secret field unless the user gave that text for this run (`userText`: the values
 * passed on the command line, never defaults out of the file).
 */
export class StepGate {
  private readonly gate: SafetyGate;
  private calls = 0;

  constructor(
    trusted: boolean,
    private readonly userText: string,
    private readonly decide: ApprovalDecider | undefined,
  ) {
    this.gate = new SafetyGate(trusted ? 'auto' : 'confirm-risky');
  }

  async check(request: Record<string, unknown>, context: ToolContext): Promise<GateVerdict> {
    this.calls += 1;
    const call = {
      askId: 'workflow',
      callId: `step-${this.calls}`,
      tool: actionTool.name,
      definition: actionTool,
      rawArguments: JSON.stringify(request),
    };
    const outcome = await this.gate.check(call, context, { userText: this.userText, readContent: false });
    if (outcome.kind === 'run') return { ok: true };
    if (outcome.kind === 'refuse') return { ok: false, code: 'refused', message: outcome.result.message };
    if (this.decide === undefined) {
      return {
        ok: false,
        code: 'approval_needed',
        message: `${outcome.request.reason}; approval is needed and nobody can answer here (trust the workflow to allow it)`,
      };
    }
    const decision = await this.decide(outcome.request);
    if (decision === 'deny') return { ok: false, code: 'denied', message: `${outcome.request.reason}; the user denied it` };
    this.gate.grant(outcome, decision);
    return { ok: true };
  }

  /**
   * Who answers for a step's synthetic input when the user keeps their devices (keepDevices):
   * the run's decider, asked about that input alone; undefined when nobody can answer, so the
   * step is refused.
   */
  inputAsker(context: ToolContext): InputAsker | undefined {
    const decide = this.decide;
    if (decide === undefined) return undefined;
    return async (input) => {
      const outcome = await this.gate.checkInput({ askId: 'workflow', callId: `step-${this.calls}`, tool: actionTool.name }, input, context.platform);
      if (outcome.kind === 'run') return true;
      const decision = await decide(outcome.request);
      if (decision === 'deny') return false;
      this.gate.grant(outcome, decision);
      return true;
    };
  }
}
