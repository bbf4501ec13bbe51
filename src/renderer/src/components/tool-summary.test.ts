import { describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../../shared/transcript';
import { createI18n } from '../../../shared/i18n/i18n';
import { prettyArguments, toolSummary as summarize } from './tool-summary';

const EN = createI18n('en');
const toolSummary = (entry: Extract<ChatEntry, { kind: 'tool' }>) => summarize(entry, EN.t);

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

  it('speaks Portuguese, plural forms included', () => {
    const { t } = createI18n('pt-BR');
    expect(summarize(tool('ui_action', '{"action":"click","id":"k3"}', { method: 'input', changed: false }), t)).toEqual([
      'click',
      'k3',
      'entrada simulada',
      'sem mudança',
    ]);
    const form = (count: number) => summarize(tool('ui_fill_form', JSON.stringify({ fields: Array.from({ length: count }, () => ({})) })), t)[1];
    expect([form(0), form(1), form(2)]).toEqual(['0 campo', '1 campo', '2 campos']);
  });
});
