import type { UiNode } from '../../../shared/ui-node';
import { findById } from '../../ui/tree-index';
import { locateField } from '../../tools/fill-form';
import type { Tool } from '../../tools/types';
import { parseArguments } from '../tool-registry/registry';

/** What a masked value prints as. */
export const MASK = '•••';

/** Each piece of text the call types or sets, with the node it lands on in the resolved tree. */
export function typedTargets(definition: Tool, args: Record<string, unknown>, tree: UiNode | undefined): { node: UiNode | undefined; text: string }[] {
  if (tree === undefined) return [];
  return (definition.safety?.typedText?.(args as never, tree) ?? []).map((typed) => ({
    node: typed.id !== undefined ? findById(tree, typed.id) : typed.label !== undefined ? locateField(tree, typed.label) : undefined,
    text: typed.text,
  }));
}

function maskValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    if (secrets.includes(value)) return MASK;
    return secrets.reduce((text, secret) => text.split(secret).join(MASK), value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return secrets.includes(String(value)) ? MASK : value;
  if (Array.isArray(value)) return value.map((each) => maskValue(each, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, maskValue(each, secrets)]));
  }
  return value;
}

/**
 * The model's arguments as they may be shown (tool lines, approval prompts, events, logs):
 * every text the call puts into a secret field replaced by •••, wherever it appears.
 * Undefined when the call puts nothing into a secret field.
 */
export function maskSecrets(definition: Tool, args: Record<string, unknown>, tree: UiNode | undefined, rawArguments: string): string | undefined {
  const secrets = typedTargets(definition, args, tree)
    .filter(({ node, text }) => node?.states.secret === true && text !== '')
    .map(({ text }) => text);
  if (secrets.length === 0) return undefined;
  const { value, jsonError } = parseArguments(rawArguments);
  if (jsonError !== undefined) return secrets.reduce((text, secret) => text.split(secret).join(MASK), rawArguments);
  return JSON.stringify(maskValue(value, secrets));
}
