import { readFile, stat } from 'node:fs/promises';
import { ValidationError } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';
import { stepPlaceholders } from './params';
import { MAX_WORKFLOW_BYTES, WORKFLOW_FORMAT, workflowSchema, type Workflow, type WorkflowStep } from './schema';

/**
 * A workflow from its JSON text, validated: the schema, then every `{{name}}` a step uses
 * must be declared, and a secret parameter may not carry a default. Throws ValidationError
 * naming what is wrong, never echoing values (a file may hold a password by mistake).
 */
export function parseWorkflow(text: string, source = 'workflow'): Workflow {
  if (text.length > MAX_WORKFLOW_BYTES) throw new ValidationError(`${source} is larger than ${MAX_WORKFLOW_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`${source} is not JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  if (typeof json === 'object' && json !== null && (json as { format?: unknown }).format !== WORKFLOW_FORMAT) {
    throw new ValidationError(`${source} is not a Deskpilot workflow (its "format" is not "${WORKFLOW_FORMAT}")`);
  }
  const parsed = workflowSchema.safeParse(json);
  if (!parsed.success) throw new ValidationError(`${source} is not a valid workflow: ${describeIssues(parsed.error.issues, { input: json, max: 5 })}`);
  const workflow = parsed.data;
  const declared = workflow.parameters ?? {};
  workflow.steps.forEach((step, index) => {
    const unknown = stepPlaceholders(step).filter((name) => !Object.hasOwn(declared, name));
    if (unknown.length > 0) throw new ValidationError(`${source}: step ${index + 1} uses {{${unknown[0] ?? ''}}}, which "parameters" does not declare`);
  });
  for (const [name, parameter] of Object.entries(declared)) {
    if (parameter.secret === true && parameter.default !== undefined) throw new ValidationError(`${source}: secret parameter '${name}' may not have a default`);
  }
  secretsOnlyTyped(workflow, source);
  return workflow;
}

/**
 * A secret parameter goes only where text is typed or set: a set_value's value, a type's text.
 * Anywhere else it would be printed: a target's name, an intent, a window title or an expected
 * value is echoed in plans, halt reports and the result the model reads ("no element fits
 * button "hunter2"").
 */
function secretsOnlyTyped(workflow: Workflow, source: string): void {
  const secrets = new Set(Object.entries(workflow.parameters ?? {}).flatMap(([name, parameter]) => (parameter.secret === true ? [name] : [])));
  if (secrets.size === 0) return;
  workflow.steps.forEach((step, index) => {
    const { value: _value, text: _text, ...printed } = step as WorkflowStep & { value?: unknown; text?: unknown };
    const leaked = stepPlaceholders(printed as WorkflowStep).find((name) => secrets.has(name));
    if (leaked !== undefined) {
      throw new ValidationError(
        `${source}: step ${index + 1} uses secret parameter '${leaked}' outside a set_value value or a type text, where it would be printed`,
      );
    }
  });
}

/** Reads and validates a workflow file, refusing an oversized one before reading it. */
export async function loadWorkflow(file: string): Promise<Workflow> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new ValidationError(`${file} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw new ValidationError(`cannot read workflow ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (size > MAX_WORKFLOW_BYTES) throw new ValidationError(`${file} is larger than ${MAX_WORKFLOW_BYTES} bytes`);
  return parseWorkflow(await readFile(file, 'utf8'), file);
}

/** The file's text: stable key order as the schema lists it, two-space indents, a final newline. */
export function formatWorkflow(workflow: Workflow): string {
  return `${JSON.stringify(workflow, null, 2)}\n`;
}
