import { z } from 'zod';
import { ACTION_NAMES, MAX_SETTLE_MS, type UiActionResult } from '../../../../shared/ui-action';
import { targetPid } from './target';
import { defineTool } from './types';

/**
 * A flat object for the model to see, because function calling wants an object at the top
 * and the engine's discriminated union would be a oneOf. The engine's own strict parse
 * (parseUiActionRequest) still decides what is valid, so the contract stays the engine's.
 */
const schema = z.object({
  action: z.enum(ACTION_NAMES).describe('click, set_value, type, key, scroll or drag'),
  id: z.string().optional().describe('Target node id (optional for key: focus it first)'),
  value: z.union([z.number(), z.string()]).optional().describe('set_value: the new value'),
  text: z.string().optional().describe('type: the text to type'),
  key: z.string().optional().describe('key: a key or combo such as return, escape, tab, ctrl+a'),
  modifiers: z.array(z.string()).optional().describe('key: cmd, ctrl, alt, shift'),
  direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('scroll: default down'),
  amount: z.number().int().optional().describe('scroll: notches, default 3'),
  toId: z.string().optional().describe('drag: the destination node id'),
  settleMs: z.number().int().min(0).max(MAX_SETTLE_MS).optional().describe('Wait before verifying, in ms'),
});

export function summarizeAction(action: string, result: UiActionResult): string {
  if (!result.success) {
    const error = result.error;
    return `${action} failed${error === undefined ? '' : `: ${error.code}: ${error.message}`}`;
  }
  const head = `${action} done via ${result.method}${result.driver === undefined ? '' : ` (${result.driver})`}`;
  if (result.changed) return `${head}; changed: ${result.changes.join('; ')}`;
  if (action === 'scroll') return `${head}; changed: false is expected for scroll (the scrolled node itself does not change); call get_ui to see what is showing now`;
  return `${head}; changed: false: nothing visible changed, so check with get_ui before assuming it worked`;
}

export const uiActionTool = defineTool({
  name: 'ui_action',
  description:
    'Acts on the target app: click, set_value, type, key, scroll or drag, by node id. Returns the node before and after, whether it changed and how, and which method ran (accessibility or synthetic input).',
  promptSnippet: 'prefer set_value over type for fields and sliders; after an action, trust `changes` rather than assuming',
  schema,
  async handler(args, context) {
    const pid = await targetPid(context);
    // Only the fields the model gave: undefined keys would trip the engine's strict objects.
    const request = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
    const result = await context.engine.run(pid, request, context.signal);
    return { success: result.success, message: summarizeAction(args.action, result), data: result };
  },
});
