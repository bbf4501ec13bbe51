import { z } from 'zod';
import { ValidationError } from '../../shared/errors';
import { parseUiActionRequest, type UiActionRequest, type UiActionResult } from '../../shared/ui-action';
import { uiActionFields } from '../../shared/ui-action-schema';
import { formatNode } from '../../core/ui/serialize';
import { fitJson, fitText } from '../budget';
import { resolveTarget, type TargetArgs } from '../context';
import { errorOutput, nodeOutput, parseArgs, targetShape } from '../schemas';
import { errorText } from '../tool-error';
import { defineMcpTool } from '../tool';

/** The shared flat ui_action schema plus the target app; parseUiActionRequest still decides what is valid. */
const input = z.strictObject({ ...targetShape, ...uiActionFields });

/** Exactly the contract's UiActionResult. */
const output = z.object({
  success: z.boolean(),
  method: z.enum(['accessibility', 'input']).optional(),
  nodeBefore: nodeOutput.nullable(),
  nodeAfter: nodeOutput.nullable(),
  changed: z.boolean(),
  changes: z.array(z.string()),
  driver: z.string().optional(),
  error: errorOutput.optional(),
});

const target = z.strictObject(targetShape);

function parse(args: unknown): { target: TargetArgs; request: UiActionRequest } {
  if (typeof args !== 'object' || args === null) throw new ValidationError('invalid ui_action: arguments must be an object');
  const { pid, app, ...rest } = args as Record<string, unknown>;
  const parsedTarget = parseArgs('ui_action', target, { pid, app });
  // Only the fields given: an explicit undefined would trip the contract's strict objects.
  const request = parseUiActionRequest(Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)));
  return { target: parsedTarget, request };
}

export function summarize(request: UiActionRequest, result: UiActionResult): string {
  if (!result.success) return result.error === undefined ? `${request.action} failed` : errorText(result.error);
  const via = `${request.action} ran via ${result.method}${result.driver === undefined ? '' : ` (${result.driver})`}`;
  const after = result.nodeAfter === null ? '' : `\nnow: ${formatNode(result.nodeAfter)}`;
  if (result.changed) return `${via}; changed: ${result.changes.join('; ')}${after}`;
  if (request.action === 'scroll') {
    return `${via}; changed: false, which is normal for scroll: the scrolled node itself may not change. Call ui_tree or ui_find to see what is showing now.${after}`;
  }
  return `${via}, but changed: false: nothing observable changed (a soft failure). Do not assume it worked: read the node again with ui_tree (rootId) or ui_find, then try another way (set_value instead of type, a different node, a key).${after}`;
}

export const actionTool = defineMcpTool({
  name: 'ui_action',
  title: 'Act on an element',
  description: [
    'Act, then verify: one action on one node by id. click (buttons, check boxes, list items, menu items), set_value (text fields, sliders; preferred over type), type (text at the caret), key (return, escape, ctrl+s…; with id it focuses that node first), scroll (direction, amount), drag (id onto toId).',
    'Before: get ids from ui_tree or ui_find; never guess ids. After: the result says success, which method ran (accessibility or synthetic input), nodeBefore, nodeAfter, changed and changes.',
    'changed: true means the node visibly changed as listed. changed: false with success: true is a soft failure: the action ran but nothing observable changed; re-read with ui_tree and try another way.',
    'Exception: scroll may not be observable, so changed: false is normal after scroll; read the tree to see what is showing.',
    'success: false comes back as an error with a code: NODE_NOT_FOUND lists the closest ids, NOT_SETTABLE means use type, PROCESS_EXITED means the app is gone.',
  ].join(' '),
  input,
  output,
  readOnly: false,
  parse,
  async run(args, context, signal) {
    const { core, app } = await resolveTarget(context, args.target);
    const result = await core.engine.run(app.pid, args.request, signal);
    const maxChars = context.options.maxChars;
    // The text is what a model reads, so it is the summary alone: the full result, nodes and all, is the
    // structured content, and repeating it as JSON here would spend the budget twice.
    const text = fitText(summarize(args.request, result), maxChars, 'The full result is in the structured content; read a node with ui_read.').value;
    return { text, structured: fitJson(result, maxChars).value, isError: !result.success };
  },
});
