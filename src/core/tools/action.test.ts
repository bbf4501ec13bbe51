import { describe, expect, it } from 'vitest';
import type { UiActionResult } from '../../shared/ui-action';
import { uiActionFields } from '../../shared/ui-action-schema';
import { toParametersSchema } from '../agent/tool-registry/registry';
import { z } from 'zod';
import { actionTool, summarizeAction } from './action';

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
    const text = summarizeAction({ action: 'click' }, { ...base, changed: true, changes: ['checked: false → true'] });
    expect(text).toBe('click ran via accessibility; changed: checked: false → true\nnow: [k3x9a] checkbox "Dark mode" (checked)');
  });

  it('calls changed: false a soft failure and says what to do next', () => {
    const text = summarizeAction({ action: 'type' }, { ...base, method: 'input', driver: 'nut-js' });
    expect(text).toMatch(
      /^type ran via input \(nut-js\), but changed: false: nothing observable changed \(a soft failure\)\. Do not assume it worked: read the node again/,
    );
  });

  it('treats changed: false after scroll as normal', () => {
    expect(summarizeAction({ action: 'scroll' }, { ...base, method: 'input' })).toMatch(/^scroll ran via input; changed: false, which is normal for scroll/);
  });

  it('gives a failure as its code and message with the next step', () => {
    const text = summarizeAction(
      { action: 'set_value' },
      {
        ...base,
        success: false,
        nodeAfter: null,
        error: { code: 'NOT_SETTABLE', message: "element does not support set_value; try 'type'", isRetryable: false },
      },
    );
    expect(text).toBe("set_value failed: NOT_SETTABLE: element does not support set_value; try 'type'. Use ui_action 'type' on the same id instead.");
  });
});

describe('ui_action input schema', () => {
  it('is the contract’s flat action fields, with the same descriptions, plus the target and a bound on every string', () => {
    const { pid: _pid, app: _app, ...fields } = (toParametersSchema(actionTool.schema) as { properties: Record<string, unknown> }).properties;
    const contract = (toParametersSchema(z.object(uiActionFields)) as { properties: Record<string, { description?: string }> }).properties;
    expect(Object.keys(fields)).toEqual(Object.keys(contract));
    for (const [name, field] of Object.entries(fields)) {
      expect((field as { description?: string }).description, name).toBe(contract[name]?.description);
      const strings = JSON.stringify(field).match(/"type":"string"[^}]*/g) ?? [];
      for (const string of strings) if (!string.includes('"enum"')) expect(string, name).toMatch(/"maxLength":\d+/);
    }
  });
});
