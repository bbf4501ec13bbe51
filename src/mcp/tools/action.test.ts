import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { UiActionResult } from '../../shared/ui-action';
import { toParametersSchema } from '../../core/agent/tools/registry';
import { uiActionTool } from '../../core/agent/tools/ui-action';
import { actionTool, summarize } from './action';

const node = {
  id: 'k3x9a',
  role: 'checkbox' as const,
  platformRole: 'check box',
  name: 'Dark mode',
  states: { enabled: true, focused: false, checked: true },
  actions: ['toggle'],
};
const base: UiActionResult = { success: true, method: 'accessibility', nodeBefore: node, nodeAfter: node, changed: false, changes: [] };

describe('ui_action summaries', () => {
  it('names what changed and the node as it is now', () => {
    const text = summarize({ action: 'click', id: 'k3x9a' }, { ...base, changed: true, changes: ['checked: false → true'] });
    expect(text).toBe('click ran via accessibility; changed: checked: false → true\nnow: [k3x9a] checkbox "Dark mode" (checked)');
  });

  it('calls changed: false a soft failure and says what to do next', () => {
    const text = summarize({ action: 'type', id: 'k3x9a', text: 'x' }, { ...base, method: 'input', driver: 'nut-js' });
    expect(text).toMatch(
      /^type ran via input \(nut-js\), but changed: false: nothing observable changed \(a soft failure\)\. Do not assume it worked: read the node again/,
    );
  });

  it('treats changed: false after scroll as normal', () => {
    expect(summarize({ action: 'scroll', id: 'k3x9a' }, { ...base, method: 'input' })).toMatch(
      /^scroll ran via input; changed: false, which is normal for scroll/,
    );
  });

  it('gives a failure as its code and message with the next step', () => {
    const text = summarize(
      { action: 'set_value', id: 'k3x9a', value: 'a' },
      {
        ...base,
        success: false,
        nodeAfter: null,
        error: { code: 'NOT_SETTABLE', message: "element does not support set_value; try 'type'", isRetryable: false },
      },
    );
    expect(text).toBe("NOT_SETTABLE: element does not support set_value; try 'type'. Use ui_action 'type' on the same id instead.");
  });
});

describe('ui_action input schema', () => {
  it('is the agent tool’s own: the same fields with the same descriptions, plus the target', () => {
    const mcp = z.toJSONSchema(actionTool.input, { io: 'input' }) as { properties: Record<string, unknown> };
    const { pid: _pid, app: _app, ...fields } = mcp.properties;
    expect(fields).toEqual((toParametersSchema(uiActionTool.schema) as { properties: unknown }).properties);
  });
});
