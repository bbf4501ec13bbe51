import { describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../../shared/transcript';
import { prettyArguments, toolSummary } from './tool-summary';

function tool(name: string, args: string, extra: Partial<Extract<ChatEntry, { kind: 'tool' }>> = {}): Extract<ChatEntry, { kind: 'tool' }> {
  return { kind: 'tool', id: 'c1', askId: 'a', name, arguments: args, status: 'ok', logs: [], ...extra };
}

describe('toolSummary', () => {
  it('reads action, target, method and changed for ui_action', () => {
    expect(toolSummary(tool('ui_action', '{"action":"click","id":"k3"}', { target: 'Save button', method: 'accessibility', changed: true }))).toEqual([
      'click',
      'Save button',
      'accessibility',
      'changed',
    ]);
    expect(toolSummary(tool('ui_action', '{"action":"type","id":"k3"}', { method: 'input', changed: false }))).toEqual(['type', 'k3', 'input', 'no change']);
  });

  it('names other tools by their most telling argument', () => {
    expect(toolSummary(tool('ui_focus_app', '{"name":"Firefox"}'))).toEqual(['focus app', 'Firefox']);
    expect(toolSummary(tool('ui_fill_form', '{"fields":[{"label":"a","value":1},{"label":"b","value":2}]}'))).toEqual(['fill form', '2 fields']);
    expect(toolSummary(tool('ui_apps', '{}'))).toEqual(['apps']);
  });

  it('copes with arguments that are not JSON', () => {
    expect(toolSummary(tool('ui_tree', '{"rootId":'))).toEqual(['tree']);
    expect(prettyArguments('{"rootId":')).toBe('{"rootId":');
    expect(prettyArguments('{"a":1}')).toBe('{\n  "a": 1\n}');
  });
});
