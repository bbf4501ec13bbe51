import { NodeNotFoundError, serializeError } from '../../shared/errors';
import type { UiActionResult } from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import { findById, walk } from '../ui/tree-index';
import { chooseOption } from './choose-option';
import type { ActionEngine } from './engine';

/** Roles that hold the focus for their window, not for typing: typing "at the focus" needs a control inside. */
const NOT_A_CONTROL = new Set<Role>(['application', 'window', 'dialog', 'group', 'unknown']);
const EDITABLE_ROLES = new Set<Role>(['textfield', 'textarea', 'combobox', 'spinbutton', 'document']);

function record(input: unknown): Record<string, unknown> | undefined {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
}

/** The control with the keyboard focus: the deepest focused node that is not a whole window. */
export function focusedControl(root: UiNode): UiNode | undefined {
  let found: UiNode | undefined;
  for (const node of walk(root)) if (node.states.focused && !NOT_A_CONTROL.has(node.role)) found = node;
  return found;
}

function nothingFocused(root: UiNode, pid: number): UiActionResult {
  const fields = [...walk(root)].filter((node) => EDITABLE_ROLES.has(node.role) || node.states.editable === true).slice(0, 5);
  const error = new NodeNotFoundError(
    `'type' without an id types where the keyboard focus is, and no control in pid ${pid} has it; give the id of the field to type into`,
    { data: { id: null, candidates: fields.map((node) => ({ id: node.id, role: node.role, name: node.name })) } },
  );
  return { success: false, nodeBefore: null, nodeAfter: null, changed: false, changes: [], error: serializeError(error) };
}

/**
 * One ui_action as every program runs it (the CLI's act, the MCP server's and the agent's
 * ui_action): the engine, plus two things a person expects that the engine's strict request
 * does not say:
 * - `type` without an id types into the control that has the focus, and is verified on it;
 * - `set_value` on a combo box chooses the item of that name, and reads the box back.
 */
export async function runAction(engine: ActionEngine, pid: number, input: unknown, signal?: AbortSignal): Promise<UiActionResult> {
  const fields = record(input);
  if (fields?.['action'] === 'type' && fields['id'] === undefined && typeof fields['text'] === 'string') {
    const { root } = await engine.observe(pid, { fresh: true, ...(signal === undefined ? {} : { signal }) });
    const focused = focusedControl(root);
    if (focused === undefined) return nothingFocused(root, pid);
    return engine.run(pid, { ...fields, id: focused.id }, signal);
  }
  const result = await engine.run(pid, input, signal);
  if (result.success || result.error?.code !== 'NOT_SETTABLE' || fields?.['action'] !== 'set_value') return result;
  const { value, id } = fields;
  if (typeof value !== 'string' || typeof id !== 'string') return result;
  const { root } = await engine.observe(pid, { fresh: true, ...(signal === undefined ? {} : { signal }) });
  const box = findById(root, id);
  return box?.role === 'combobox' ? chooseOption(engine, pid, root, box, value, signal) : result;
}
