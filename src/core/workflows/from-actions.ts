import type { UiNode } from '../../shared/ui-node';
import { recordEffect } from './effect';
import { locatorOf } from './locator';
import type { RecordedAction } from './recording-engine';
import { WORKFLOW_FORMAT, WORKFLOW_VERSION, type Locator, type Parameter, type Workflow, type WorkflowStep } from './schema';
import { foldChoices } from './fold-choices';
import { placesOf } from './tree-places';

/** Parameter names from field names: `E-mail address` → `e_mail_address`. */
export function parameterName(label: string, taken: ReadonlySet<string>): string {
  const base = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  const name = /^[a-z]/.test(base) ? base : `value${base === '' ? '' : `_${base}`}`;
  let candidate = name;
  for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${name}_${suffix}`;
  return candidate;
}

export interface BuildOptions {
  name: string;
  /** What the user asked: values it contains word for word become parameters. */
  question?: string;
  app: Workflow['app'];
}

/**
 * A workflow from actions that ran and were verified. Values the user typed in the question
 * are offered as parameters (defaulting to what they typed); anything that went into a secret
 * field becomes a secret parameter with no default, so the file never holds it.
 */
export function workflowFromActions(actions: readonly RecordedAction[], options: BuildOptions): Workflow {
  const parameters: Record<string, Parameter> = {};
  const taken = new Set<string>();
  const steps: WorkflowStep[] = [];
  /** Text that went into secret fields: kept out of the description too, where the question is quoted. */
  const secrets: string[] = [];
  for (const action of foldChoices(actions)) {
    const { request } = action;
    const places = placesOf(action.treeBefore);
    const locate = (id: string | undefined): { locator: Locator; node: UiNode } | undefined => {
      const place = id === undefined ? undefined : places.find((each) => each.node.id === id);
      return place === undefined ? undefined : { locator: locatorOf(place), node: place.node };
    };
    const target = locate(request.id);
    if (target === undefined && request.action !== 'key') continue;
    const literal = request.action === 'set_value' ? request.value : request.action === 'type' ? request.text : undefined;
    let written = literal;
    if (typeof literal === 'string' && target !== undefined) {
      const secret = target.node.states.secret === true;
      if (secret && literal !== '') secrets.push(literal);
      const asked = !secret && options.question !== undefined && literal.trim() !== '' && options.question.includes(literal);
      if (secret || asked) {
        const name = parameterName(target.node.name || (secret ? 'password' : 'value'), taken);
        taken.add(name);
        parameters[name] = secret
          ? { description: `${target.node.name || 'password'} (secret)`, secret: true }
          : { description: `${target.node.name || target.node.role} (from the question)`, default: literal };
        written = `{{${name}}}`;
      }
    }
    const template = (value: string | number): string | number => (written !== literal && value === literal ? (written as string) : value);
    const expect = recordEffect(action, template);
    // A click or key the tree showed nothing of gets an empty expect: replay checks that it ran, and no more.
    const common = expect !== undefined ? { expect } : request.action === 'click' || request.action === 'key' ? { expect: {} } : {};
    const step = stepFor(action, target?.locator, locate(request.action === 'drag' ? request.toId : undefined)?.locator, written, common);
    if (step !== undefined) steps.push(step);
  }
  return {
    format: WORKFLOW_FORMAT,
    version: WORKFLOW_VERSION,
    name: options.name,
    ...(options.question === undefined ? {} : { description: `Recorded from: ${redact(options.question, secrets).slice(0, 500)}` }),
    app: options.app,
    ...(Object.keys(parameters).length === 0 ? {} : { parameters }),
    steps,
  };
}

/** The question with every secret the user typed in it blanked out. */
function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((redacted, secret) => redacted.split(secret).join('•••'), text);
}

function stepFor(
  action: RecordedAction,
  target: Locator | undefined,
  to: Locator | undefined,
  written: string | number | undefined,
  common: Pick<WorkflowStep & { action: 'click' }, 'expect'>,
): WorkflowStep | undefined {
  const { request } = action;
  switch (request.action) {
    case 'click':
      return target === undefined ? undefined : { action: 'click', target, ...common };
    case 'set_value':
      return target === undefined ? undefined : { action: 'set_value', target, value: written ?? request.value, ...common };
    case 'type':
      return target === undefined ? undefined : { action: 'type', target, text: String(written ?? request.text), ...common };
    case 'key':
      return {
        action: 'key',
        key: request.key,
        ...(request.modifiers === undefined || request.modifiers.length === 0 ? {} : { modifiers: request.modifiers }),
        ...(target === undefined ? {} : { target }),
        ...common,
      };
    case 'scroll':
      return target === undefined
        ? undefined
        : {
            action: 'scroll',
            target,
            ...(request.direction === undefined ? {} : { direction: request.direction }),
            ...(request.amount === undefined ? {} : { amount: request.amount }),
          };
    case 'drag':
      return target === undefined || to === undefined ? undefined : { action: 'drag', target, to, ...common };
  }
}
