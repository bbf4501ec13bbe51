import { z } from 'zod';
import { ValidationError, type SerializedError } from './errors';
import { describeIssue } from './validation';
import { isModifierName, normalizeKeyName, splitCombo } from './keys';
import type { UiNode } from './ui-node';

export const ACTION_NAMES = ['click', 'set_value', 'type', 'key', 'scroll', 'drag'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export const DEFAULT_SETTLE_MS = 80;
export const MAX_SETTLE_MS = 10_000;
export const DEFAULT_SCROLL_AMOUNT = 3;

const id = z.string().trim().min(1, 'must be a node id from the tree');
const settleMs = z.number().int().min(0).max(MAX_SETTLE_MS).optional();

/** Each action is its own strict object, so a missing or misspelt field names itself. */
const clickRequest = z.strictObject({ action: z.literal('click'), id, settleMs });
const setValueRequest = z.strictObject({
  action: z.literal('set_value'),
  id,
  value: z.union([z.number().finite(), z.string()]),
  settleMs,
});
const typeRequest = z.strictObject({
  action: z.literal('type'),
  id,
  text: z.string().min(1, 'must be the text to type'),
  settleMs,
});
const keyRequest = z.strictObject({
  action: z.literal('key'),
  key: z.string().min(1),
  modifiers: z.array(z.string()).max(4).optional(),
  /** Optional: a node to focus first, so the key goes where the model means it to. */
  id: id.optional(),
  settleMs,
});
const scrollRequest = z.strictObject({
  action: z.literal('scroll'),
  id,
  direction: z.enum(['up', 'down', 'left', 'right']).optional(),
  amount: z.number().int().min(1).max(100).optional(),
  settleMs,
});
const dragRequest = z.strictObject({ action: z.literal('drag'), id, toId: id, settleMs });

export const uiActionRequestSchema = z.discriminatedUnion('action', [clickRequest, setValueRequest, typeRequest, keyRequest, scrollRequest, dragRequest]);

export type UiActionRequest = z.infer<typeof uiActionRequestSchema>;

export type ActionMethod = 'accessibility' | 'input';

/**
 * What the verify step saw: the effect (`changed`), none within the wait (`unchanged`, the soft
 * failure), or the acted-on node's window or dialog gone (`closed`, a success: an OK or Cancel
 * button, a Quit item; `changes` then says whether the process exited too).
 */
export type ActionOutcome = 'changed' | 'unchanged' | 'closed';

export interface UiActionResult {
  success: boolean;
  /** Which path ran, or was tried when it failed; absent when the action never reached the app (an unknown id, a dead app). */
  method?: ActionMethod;
  nodeBefore: UiNode | null;
  nodeAfter: UiNode | null;
  changed: boolean;
  /** What differed, in words, such as `value: "a" → "ab"`. Empty when nothing did. */
  changes: string[];
  /** What verify saw; see ActionOutcome. Absent when the action failed before it ran. */
  outcome?: ActionOutcome;
  /**
   * The route in detail, such as 'action:press', 'insert-text', 'set-text-contents', 'value',
   * 'selection', 'menu-item', 'click', 'keys': `method` says which side, this says how.
   */
  via?: string;
  /**
   * True when synthetic input took the user's pointer or keyboard for the step (the pointer
   * and the active window were put back afterwards unless the user moved meanwhile).
   */
  interrupted?: boolean;
  /** With method 'input', the driver that sent it where a platform has several (macOS: 'nut-js' or 'cgevent'). */
  driver?: string;
  error?: SerializedError;
}

/**
 * Validates an action request before anything runs. Throws a ValidationError whose message
 * lists every problem in one line, written for a model to correct itself.
 */
export function parseUiActionRequest(input: unknown): UiActionRequest {
  const parsed = uiActionRequestSchema.safeParse(input);
  if (!parsed.success) {
    const action = typeof input === 'object' && input !== null ? (input as { action?: unknown }).action : undefined;
    const subject = typeof action === 'string' ? `'${action}'` : undefined;
    const problems = parsed.error.issues.map((issue) => describeIssue(issue, { input, ...(subject === undefined ? {} : { subject }) }));
    throw new ValidationError(`invalid ui_action: ${problems.join('; ')}`, { data: { problems } });
  }
  const request = parsed.data;
  if (request.action === 'key') return normalizeKeyRequest(request);
  if (request.action === 'drag' && request.id === request.toId) {
    throw new ValidationError("invalid ui_action: 'drag' needs 'toId' to differ from 'id'");
  }
  return request;
}

function normalizeKeyRequest(request: z.infer<typeof keyRequest>): UiActionRequest {
  const combo = splitCombo(request.key);
  const key = normalizeKeyName(combo.key);
  if (key === undefined) {
    throw new ValidationError(
      `invalid ui_action: unknown key '${combo.key}'; use one character or a name such as return, escape, tab, space, backspace, delete, up, down, left, right, home, end, pageup, pagedown, f1–f12`,
    );
  }
  const modifiers = [...combo.modifiers, ...(request.modifiers ?? [])].map((name) => name.toLowerCase());
  const unknown = modifiers.filter((name) => !isModifierName(name));
  if (unknown.length > 0) {
    throw new ValidationError(`invalid ui_action: unknown modifier ${unknown.map((name) => `'${name}'`).join(', ')}; use cmd, ctrl, alt or shift`);
  }
  return { ...request, key, modifiers: [...new Set(modifiers)] };
}
