import { z } from 'zod';
import type { ActionEngine } from '../actions/engine';
import { MAX_ID_CHARS, MAX_NAME_CHARS } from '../tools/bounds';
import { builtinTools } from '../tools/builtin';
import { defineTool, isReadOnly, type AnyTool } from '../tools/types';
import { describeLocator, locatorOf } from './locator';
import type { HaltReport } from './report';
import type { Locator, Workflow, WorkflowStep } from './schema';
import { placesOf } from './tree-places';

/** What the agent proposed for a halted step: the node, and the locator recorded from it. */
export interface Proposal {
  step: number;
  before: Locator;
  after: Locator;
  reason: string;
}

/**
 * The tools a recovering agent gets: every built-in that only reads, and one to name the
 * element it found. It cannot act: recovery proposes, and the user accepts.
 */
export function recoveryTools(onPropose: (id: string, reason: string) => void): AnyTool[] {
  const propose = defineTool({
    name: 'workflow_propose_target',
    description:
      'Names the element the halted workflow step meant, by its id from ui_find or ui_tree, with one line on why. Call it once; nothing is acted on.',
    schema: z.strictObject({
      id: z.string().min(1).max(MAX_ID_CHARS).describe('The id of the element the step meant'),
      reason: z.string().max(MAX_NAME_CHARS).describe('Why this element is the one the step meant'),
    }),
    effects: 'read',
    handler: (args) => {
      onPropose(args.id, args.reason);
      return Promise.resolve({ success: true, message: 'Proposal noted. Answer in one line; do not act.' });
    },
  });
  return [...builtinTools().filter((tool) => isReadOnly(tool) && tool.name !== 'ui_screenshot'), propose];
}

/** The question the agent gets: the step's intent and the halt's evidence, quoted as data. */
export function recoveryQuestion(workflow: Workflow, halt: HaltReport): string {
  const step = workflow.steps[halt.step - 1];
  const candidates = halt.candidates
    .map((candidate) => `- [${candidate.id}] ${candidate.role} ${JSON.stringify(candidate.name)}: ${candidate.reason}`)
    .join('\n');
  return [
    `A recorded workflow step halted and needs its element found again. Find the one element in the app that the step meant, with ui_find or ui_tree, and name it with workflow_propose_target. Do not act on anything. If no element clearly fits, say so and propose nothing.`,
    `Step ${halt.step}: ${halt.action}${step?.intent === undefined ? '' : ` (intent: ${JSON.stringify(step.intent)})`}.`,
    `It looked for: ${halt.lookedFor ?? 'nothing'}. It halted: ${halt.code}, ${halt.message}.`,
    `Candidates it refused:\n${candidates === '' ? '(none)' : candidates}`,
  ].join('\n');
}

/** The locator the agent's choice gives, from the app's tree now; undefined when the id is not there. */
export async function proposalFor(
  engine: ActionEngine,
  pid: number,
  workflow: Workflow,
  halt: HaltReport,
  id: string,
  reason: string,
): Promise<Proposal | undefined> {
  const step = workflow.steps[halt.step - 1];
  const before = step === undefined || !('target' in step) ? undefined : step.target;
  if (before === undefined) return undefined;
  const { root } = await engine.observe(pid, { bounds: 'interactive', fresh: true });
  const place = placesOf(root).find((each) => each.node.id === id);
  if (place === undefined) return undefined;
  return { step: halt.step, before, after: locatorOf(place), reason: reason.slice(0, 300) };
}

/** The workflow with the proposal applied: a new workflow, the original untouched. */
export function heal(workflow: Workflow, proposal: Proposal): Workflow {
  const steps = workflow.steps.map((step, index): WorkflowStep =>
    index === proposal.step - 1 && 'target' in step && step.target !== undefined ? ({ ...step, target: proposal.after } as WorkflowStep) : step,
  );
  return { ...workflow, steps };
}

/** The proposal as people read it: before and after. */
export function describeProposal(proposal: Proposal): string {
  return [
    `proposed change to step ${proposal.step}:`,
    `  - ${describeLocator(proposal.before)}`,
    `  + ${describeLocator(proposal.after)}`,
    `  why: ${proposal.reason}`,
  ].join('\n');
}
