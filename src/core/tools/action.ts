import { z } from 'zod';
import type { UiActionRequest, UiActionResult } from '../../shared/ui-action';
import { uiActionFields } from '../../shared/ui-action-schema';
import type { SerializedError } from '../../shared/errors';
import { formatNode } from '../ui/serialize';
import { findById } from '../ui/tree-index';
import { fitJson, fitText } from './budget';
import { riskyCombo, riskyName } from './risk';
import { resolveApp, targetFields } from './target';
import { defineTool } from './types';
import { MAX_ID_CHARS, MAX_TEXT_CHARS, MAX_WORD_CHARS } from './bounds';

/**
 * The flat ui_action fields plus the target app; the engine's parseUiActionRequest still decides
 * what is valid. Every string gets its bound here, so a huge one is refused before the engine looks.
 */
const schema = z.strictObject({
  ...targetFields,
  ...uiActionFields,
  id: uiActionFields.id
    .unwrap()
    .max(MAX_ID_CHARS)
    .optional()
    .describe(uiActionFields.id.description ?? ''),
  toId: uiActionFields.toId
    .unwrap()
    .max(MAX_ID_CHARS)
    .optional()
    .describe(uiActionFields.toId.description ?? ''),
  value: z
    .union([z.number(), z.string().max(MAX_TEXT_CHARS)])
    .optional()
    .describe(uiActionFields.value.description ?? ''),
  text: uiActionFields.text
    .unwrap()
    .max(MAX_TEXT_CHARS)
    .optional()
    .describe(uiActionFields.text.description ?? ''),
  key: uiActionFields.key
    .unwrap()
    .max(MAX_WORD_CHARS)
    .optional()
    .describe(uiActionFields.key.description ?? ''),
  modifiers: z
    .array(z.string().max(MAX_WORD_CHARS))
    .max(8)
    .optional()
    .describe(uiActionFields.modifiers.description ?? ''),
});

const node = z.looseObject({
  id: z.string(),
  role: z.string(),
  platformRole: z.string(),
  name: z.string(),
  value: z.union([z.string(), z.number()]).optional(),
  description: z.string().optional(),
  states: z.looseObject({ enabled: z.boolean(), focused: z.boolean() }),
  actions: z.array(z.string()),
});

/** Exactly the contract's UiActionResult. */
const output = z.object({
  success: z.boolean(),
  method: z.enum(['accessibility', 'input']).optional(),
  nodeBefore: node.nullable(),
  nodeAfter: node.nullable(),
  changed: z.boolean(),
  changes: z.array(z.string()),
  outcome: z.enum(['changed', 'unchanged', 'closed']).optional(),
  via: z.string().optional(),
  interrupted: z.boolean().optional(),
  driver: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string(), isRetryable: z.boolean(), data: z.record(z.string(), z.unknown()).optional() }).optional(),
});

/** The next step for a model, per error code, where the message alone does not say it. */
const NEXT_STEP: Record<string, string> = {
  VALIDATION: 'Fix the arguments named above and call again.',
  PROCESS_EXITED: 'The app has exited or the pid is wrong; call ui_apps for the running apps and their pids.',
  PERMISSION_DENIED: 'Do not retry this target.',
  UI_NOT_AVAILABLE: 'This machine cannot do this; do not retry it.',
  TIMEOUT: 'The app did not answer in time (busy or frozen); wait a moment and try again.',
  NOT_SETTABLE: "Use ui_action 'type' on the same id instead.",
};

/** An error as a model reads it: `CODE: message`, then the next step. */
export function errorText(error: SerializedError): string {
  const hint = NEXT_STEP[error.code];
  if (hint === undefined || error.message.includes(hint)) return `${error.code}: ${error.message}`;
  return `${error.code}: ${error.message}${/[.!?]$/.test(error.message) ? '' : '.'} ${hint}`;
}

/** One line on what an action did, as the CLI prints it and a model reads it; the full result is the data. */
export function summarizeAction(request: { action: string }, result: UiActionResult): string {
  if (!result.success) return result.error === undefined ? `${request.action} failed` : `${request.action} failed: ${errorText(result.error)}`;
  // The detailed route (via) and `interrupted` stay in the data: the one line names the side only.
  const via = `${request.action} ran via ${result.method ?? 'nothing'}${result.driver === undefined ? '' : ` (${result.driver})`}`;
  const after = result.nodeAfter === null ? '' : `\nnow: ${formatNode(result.nodeAfter)}`;
  if (result.changed) return `${via}; changed: ${result.changes.join('; ')}${after}`;
  if (request.action === 'scroll') {
    return `${via}; changed: false, which is normal for scroll: the scrolled node itself may not change. Call ui_tree or ui_find to see what is showing now.${after}`;
  }
  return `${via}, but changed: false: nothing observable changed (a soft failure). Do not assume it worked: read the node again with ui_tree (rootId) or ui_find, then try another way (set_value instead of type, a different node, a key).${after}`;
}

export const actionTool = defineTool({
  name: 'ui_action',
  title: 'Act on an element',
  description: [
    'Act, then verify: one action on one node by id. click (buttons, check boxes, list items, menu items), set_value (text fields, sliders; preferred over type), type (text at the caret), key (return, escape, ctrl+s…; with id it focuses that node first), scroll (direction, amount), drag (id onto toId).',
    'Before: get ids from ui_tree or ui_find; never guess ids. After: the result says success, which method ran (accessibility or synthetic input), nodeBefore, nodeAfter, changed and changes.',
    'changed: true means the node visibly changed as listed. changed: false with success: true is a soft failure: the action ran but nothing observable changed; re-read with ui_tree and try another way.',
    'Exception: scroll may not be observable, so changed: false is normal after scroll; read the tree to see what is showing.',
    'success: false comes back as an error with a code: NODE_NOT_FOUND lists the closest ids, NOT_SETTABLE means use type, PROCESS_EXITED means the app is gone.',
  ].join(' '),
  promptSnippet: 'prefer set_value over type for fields and sliders; after an action, trust `changes` rather than assuming',
  schema,
  output,
  effects: 'act',
  reports: 'node',
  safety: {
    typedText: (args) => {
      if (args.action === 'type' && args.text !== undefined) return [{ ...(args.id === undefined ? {} : { id: args.id }), text: args.text }];
      if (args.action === 'set_value' && args.value !== undefined) return [{ ...(args.id === undefined ? {} : { id: args.id }), text: String(args.value) }];
      return [];
    },
    plan: (args, tree) => {
      const node = args.id === undefined || tree === undefined ? undefined : findById(tree, args.id);
      const target = node === undefined ? undefined : node.name.trim() === '' ? node.role : node.name;
      const to = args.toId === undefined || tree === undefined ? undefined : findById(tree, args.toId);
      const value =
        args.action === 'key'
          ? [...(args.modifiers ?? []), args.key ?? ''].join('+')
          : args.action === 'drag'
            ? to?.name
            : args.action === 'type'
              ? args.text
              : args.action === 'scroll'
                ? args.direction
                : args.value === undefined
                  ? undefined
                  : String(args.value);
      return { verb: args.action, ...(target === undefined ? {} : { target }), ...(value === undefined ? {} : { value }) };
    },
    risk: (args, tree) => {
      if (args.action === 'key' && args.key !== undefined) return riskyCombo(args.key, args.modifiers ?? []);
      if (args.action === 'click' && args.id !== undefined && tree !== undefined) {
        const target = findById(tree, args.id);
        if (target !== undefined && riskyName(target.name)) return { code: 'clicks', values: { name: JSON.stringify(target.name) } };
      }
      return undefined;
    },
  },
  async handler(args, context) {
    const { pid: _pid, app: _app, ...fields } = args;
    const app = await resolveApp(context, args);
    // Only the fields the model gave: undefined keys would trip the engine's strict objects.
    const request = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as UiActionRequest;
    const result = await context.engine.run(app.pid, request, context.signal);
    const summary = summarizeAction(args, result);
    const maxChars = context.maxChars;
    if (maxChars === undefined) return { success: result.success, message: summary, data: result };
    // The text is the summary alone: the full result, nodes and all, is the data, and repeating it here would spend the budget twice.
    const text = fitText(summary, maxChars, 'The full result is in the structured content; read a node with ui_read.').value;
    return { success: result.success, message: text, data: fitJson(result, maxChars).value };
  },
});
