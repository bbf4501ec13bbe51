import { z } from 'zod';
import { parseUiActionRequest, type UiActionRequest } from '../../shared/ui-action';
import { uiActionFields } from '../../shared/ui-action-schema';
import { runAction } from '../actions/run-action';
import { findById } from '../ui/tree-index';
import { summarizeAction } from './advice';
import { fitJson, fitText } from './budget';
import { focusedNode } from './risk';
import { actionRisk } from './action-risk';
import { resolveApp, targetFields } from './target';
import { defineTool } from './types';
import { MAX_ID_CHARS, MAX_TEXT_CHARS, MAX_WORD_CHARS } from './bounds';
import { ACTION_NAMES } from '../../shared/ui-action';
import { argText, argumentLine } from './gist';

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

/** Only the fields the model gave: undefined keys would trip the engine's strict objects. */
function definedOnly(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

// Advice is worded per program (a model's tools, a person's commands): see advice.ts.
export { errorText, summarizeAction } from './advice';

export const actionTool = defineTool({
  name: 'ui_action',
  title: 'Act on an element',
  describe: (args) => {
    const action = argText(args['action']);
    const verb = ACTION_NAMES.find((name) => name === action) ?? 'act';
    // `click kqxza dy=3`: the action and its id first, as people say it.
    const key =
      typeof args['action'] === 'string'
        ? [args['action'], typeof args['id'] === 'string' ? args['id'] : '', argumentLine(args, ['action', 'id'])].filter((part) => part !== '').join(' ')
        : argumentLine(args);
    if (verb === 'key') {
      const modifiers = Array.isArray(args['modifiers']) ? args['modifiers'].filter((each) => typeof each === 'string') : [];
      return { verb, target: [...modifiers, argText(args['key']) ?? ''].join('+'), key };
    }
    if (verb === 'type' || verb === 'set_value') return { verb, value: argText(args['text']) ?? argText(args['value']) ?? '', unnamed: 'element', key };
    return { verb, unnamed: verb === 'scroll' ? 'page' : 'element', key };
  },
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
    target: 'app',
    normalize: (args) => {
      const { pid, app, ...fields } = args;
      // The engine's own parse: ids trimmed, the key combo split and its names made canonical.
      const request = parseUiActionRequest(definedOnly(fields));
      return { ...(pid === undefined ? {} : { pid }), ...(app === undefined ? {} : { app }), ...request } as typeof args;
    },
    nodes: (args) => [args.id, args.toId],
    typedText: (args, tree) => {
      if (args.action === 'type' && args.text !== undefined) return [{ ...(args.id === undefined ? {} : { id: args.id }), text: args.text }];
      if (args.action === 'set_value' && args.value !== undefined) return [{ ...(args.id === undefined ? {} : { id: args.id }), text: String(args.value) }];
      // A printable key, alone or with shift, types its character into the node it lands on (ctrl+a selects).
      const typing = (args.modifiers ?? []).every((name) => name === 'shift');
      if (args.action === 'key' && args.key !== undefined && [...args.key].length === 1 && typing) {
        const id = args.id ?? (tree === undefined ? undefined : focusedNode(tree)?.id);
        return [{ ...(id === undefined ? {} : { id }), text: args.key }];
      }
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
    risk: (args, tree, _locate, platform) => actionRisk(args, tree, platform),
  },
  async handler(args, context) {
    const { pid: _pid, app: _app, ...fields } = args;
    const app = await resolveApp(context, args);
    const request = definedOnly(fields) as UiActionRequest;
    const result = await runAction(context.engine, app.pid, request, context.signal);
    const summary = summarizeAction(args, result);
    const maxChars = context.maxChars;
    if (maxChars === undefined) return { success: result.success, message: summary, data: result };
    // The text is the summary alone: the full result, nodes and all, is the data, and repeating it here would spend the budget twice.
    const text = fitText(summary, maxChars, 'The full result is in the structured content; read a node with ui_read.').value;
    return { success: result.success, message: text, data: fitJson(result, maxChars).value };
  },
});
