import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { OpenAICompatibleProvider } from '../core/agent/provider';
import { ToolRegistry } from '../core/agent/tool-registry';
import { formatWorkflow, parseWorkflow } from '../core/workflows/load';
import { describeProposal, heal, proposalFor, recoveryQuestion, recoveryTools, type Proposal } from '../core/workflows/recover';
import type { HaltReport } from '../core/workflows/report';
import type { Workflow } from '../core/workflows/schema';
import type { CommandContext } from './context';

/**
 * `workflow run --recover`: hands the halted step to the agent, with the step's intent and the
 * halt's evidence and read-only tools, and prints the locator it proposes. The workflow file is
 * never changed: `--save-healed FILE` writes the healed copy there for the user to run.
 */
export async function recover(context: CommandContext, workflow: Workflow, halt: HaltReport, pid: number): Promise<Proposal | undefined> {
  const provider = new OpenAICompatibleProvider({ settings: () => ({}), env: () => context.io.env });
  await provider.resolveConfigProbing();
  let picked: { id: string; reason: string } | undefined;
  const agent = context.runtime.agent({
    provider,
    tools: new ToolRegistry(recoveryTools((id, reason) => (picked ??= { id, reason }))),
    approvalPolicy: 'auto',
    cache: false,
    onEvent: () => undefined,
  });
  await agent.ask(recoveryQuestion(workflow, halt), { pid });
  const proposal = picked === undefined ? undefined : await proposalFor(context.engine, pid, workflow, halt, picked.id, picked.reason);
  if (proposal === undefined) {
    context.io.stderr('deskpilot: recovery found no element it could name for the halted step; nothing proposed');
    return undefined;
  }
  context.io.stderr(describeProposal(proposal));
  const out = context.values['save-healed'];
  if (typeof out === 'string' && out !== '') {
    const file = path.resolve(out);
    writeFileSync(file, formatWorkflow(parseWorkflow(formatWorkflow(heal(workflow, proposal)), file)), { mode: 0o600 });
    context.io.stderr(`deskpilot: wrote the healed workflow to ${file}; the original is unchanged`);
  } else {
    context.io.stderr('deskpilot: pass --save-healed FILE to write the healed workflow');
  }
  return proposal;
}
