import type { UiActionResult } from '../../../shared/ui-action';
import { uiActionToolSchema } from '../../../shared/ui-action-schema';
import { targetPid } from './target';
import { defineTool } from './types';

export function summarizeAction(action: string, result: UiActionResult): string {
  if (!result.success) {
    const error = result.error;
    return `${action} failed${error === undefined ? '' : `: ${error.code}: ${error.message}`}`;
  }
  const head = `${action} done via ${result.method}${result.driver === undefined ? '' : ` (${result.driver})`}`;
  if (result.changed) return `${head}; changed: ${result.changes.join('; ')}`;
  if (action === 'scroll')
    return `${head}; changed: false is expected for scroll (the scrolled node itself does not change); call get_ui to see what is showing now`;
  return `${head}; changed: false: nothing visible changed, so check with get_ui before assuming it worked`;
}

export const uiActionTool = defineTool({
  name: 'ui_action',
  description:
    'Acts on the target app: click, set_value, type, key, scroll or drag, by node id. Returns the node before and after, whether it changed and how, and which method ran (accessibility or synthetic input).',
  promptSnippet: 'prefer set_value over type for fields and sliders; after an action, trust `changes` rather than assuming',
  schema: uiActionToolSchema,
  async handler(args, context) {
    const pid = await targetPid(context);
    // Only the fields the model gave: undefined keys would trip the engine's strict objects.
    const request = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
    const result = await context.engine.run(pid, request, context.signal);
    return { success: result.success, message: summarizeAction(args.action, result), data: result };
  },
});
