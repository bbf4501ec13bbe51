import { describeLocator } from './locator';
import { fillStep } from './params';
import type { Parameter, Workflow, WorkflowStep } from './schema';
import { parameterName } from './from-actions';

/**
 * The workflow with only the parameters the user kept: each other one is written into the
 * steps as its default, a fixed value. Secret parameters, and any without a default, always
 * stay parameters: their value is never written into a file.
 */
export function keepParameters(workflow: Workflow, keep: readonly string[]): Workflow {
  const fixed: Record<string, string> = {};
  const kept: Record<string, Parameter> = {};
  for (const [name, parameter] of Object.entries(workflow.parameters ?? {})) {
    if (parameter.secret === true || parameter.default === undefined || keep.includes(name)) kept[name] = parameter;
    else fixed[name] = parameter.default;
  }
  const { parameters: _dropped, ...rest } = workflow;
  return {
    ...rest,
    ...(Object.keys(kept).length === 0 ? {} : { parameters: kept }),
    steps: workflow.steps.map((step) => fillStep(step, fixed)),
  };
}

/** One step in words, for the window's preview: `set_value textfield "Name" to "{{name}}"`. */
export function describeStep(step: WorkflowStep): string {
  switch (step.action) {
    case 'wait_window':
      return `wait for ${step.window.role} ${JSON.stringify(step.window.titlePattern ?? step.window.title ?? '')}${step.gone === true ? ' to close' : ''}`;
    case 'key':
      return `key ${[...(step.modifiers ?? []), step.key].join('+')}${step.target === undefined ? '' : ` on ${describeLocator(step.target)}`}`;
    case 'set_value':
      return `set_value ${describeLocator(step.target)} to ${JSON.stringify(String(step.value).slice(0, 80))}`;
    case 'type':
      return `type ${JSON.stringify(step.text.slice(0, 80))} into ${describeLocator(step.target)}`;
    case 'drag':
      return `drag ${describeLocator(step.target)} onto ${describeLocator(step.to)}`;
    default:
      return `${step.action} ${describeLocator(step.target)}`;
  }
}

/** A file name from the question's first words: `Fill the form with Ada` → `fill-the-form-with-ada`. */
export function suggestFileName(question: string): string {
  const base = parameterName(question.split(/\s+/).slice(0, 6).join(' '), new Set()).replace(/_/g, '-').slice(0, 40);
  return base.replace(/-+$/, '') || 'workflow';
}
