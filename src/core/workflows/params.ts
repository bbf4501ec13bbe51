import { ValidationError } from '../../shared/errors';
import { MAX_TEXT_CHARS } from '../tools/bounds';
import { PARAMETER_NAME, type Workflow, type WorkflowStep } from './schema';

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_-]{0,63})\s*\}\}/g;

/** Every parameter name a string mentions, in order. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
}

/** Every `{{name}}` a step mentions, anywhere in it. */
export function stepPlaceholders(step: WorkflowStep): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') names.push(...placeholders(value));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(step);
  return names;
}

/**
 * Fills `{{name}}` once, left to right: a value that itself holds `{{other}}` stays as it is,
 * so a parameter can never pull in another one (or itself) by what it contains.
 */
export function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

/** The step with every string filled. */
export function fillStep<S extends WorkflowStep>(step: S, values: Readonly<Record<string, string>>): S {
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return fill(value, values);
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, visit(inner)]));
    return value;
  };
  return visit(step) as S;
}

/** `--var k=v` options as a map; the first `=` splits, so values may hold more. */
export function parseVars(raw: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const entry of raw) {
    const at = entry.indexOf('=');
    const name = at < 0 ? entry : entry.slice(0, at);
    if (at < 0 || !PARAMETER_NAME.test(name))
      // The name alone: what follows '=' may be a password.
      throw new ValidationError(`--var needs NAME=VALUE with a name of letters, digits, _ or -, got '${name.slice(0, 40)}${at < 0 ? '' : '=…'}'`);
    const value = entry.slice(at + 1);
    if (value.length > MAX_TEXT_CHARS) throw new ValidationError(`--var ${name} is longer than ${MAX_TEXT_CHARS} characters`);
    values[name] = value;
  }
  return values;
}

/**
 * The values a run uses: what the caller gave, else each parameter's default. A name the
 * workflow does not declare, or a declared one with neither, is a usage error before anything runs.
 */
export function resolveValues(workflow: Workflow, given: Readonly<Record<string, string>>): Record<string, string> {
  const declared = workflow.parameters ?? {};
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length > 0) {
    const known = Object.keys(declared);
    throw new ValidationError(
      `workflow '${workflow.name}' has no parameter ${unknown.map((name) => `'${name}'`).join(', ')}; its parameters: ${known.length === 0 ? 'none' : known.join(', ')}`,
    );
  }
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const [name, parameter] of Object.entries(declared)) {
    const value = given[name] ?? parameter.default;
    if (value === undefined) missing.push(name);
    else values[name] = value;
  }
  if (missing.length > 0) {
    throw new ValidationError(`workflow '${workflow.name}' needs ${missing.map((name) => `--var ${name}=…`).join(' ')} (no default)`);
  }
  return values;
}
