import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n';
import type { ChatEntry } from '../../../shared/transcript';
import { failureLine, prettyArguments, toolLabel } from './tool-summary';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

function tool(name: string, args: string, extra: Partial<Entry> = {}): Entry {
  return { kind: 'tool', id: 'c1', askId: 'a', name, arguments: args, status: 'ok', logs: [], ...extra };
}

const EN = createI18n('en');
const label = (entry: Entry, i18n = EN) => {
  const { before, strong, after } = toolLabel(entry, i18n.t, i18n.language);
  return `${before}[${strong}]${after}`;
};

describe('tool card labels', () => {
  it('says what each action did, in plain words, with the target in bold and never an id', () => {
    expect(label(tool('ui_action', '{"action":"click","id":"k3x9a"}', { target: 'Save button', method: 'accessibility', changed: true }))).toBe(
      'Clicked [Save button]',
    );
    expect(label(tool('ui_action', '{"action":"set_value","id":"k3x9a","value":"Ada"}', { target: 'Name textfield' }))).toBe('Set [Name textfield] to “Ada”');
    expect(label(tool('ui_action', '{"action":"click","id":"k3x9a"}'))).toBe('Clicked [an element]');
    expect(label(tool('ui_action', '{"action":"key","key":"s","modifiers":["ctrl"]}'))).toBe('Pressed [ctrl+s]');
    expect(label(tool('ui_action', '{"action":"click","id":"k3x9a"}', { status: 'running' }))).toBe('Clicking [an element]…');
  });

  it('names the other tools by what they looked at', () => {
    expect(label(tool('ui_find', '{"role":"button","name":"Save"}'))).toBe('Looked for [“Save”]');
    expect(label(tool('ui_fill_form', '{"fields":[{"label":"Name","value":1},{"label":"City","value":2},{"label":"Email","value":3}]}'))).toBe(
      'Filled in [Name, City, and Email]',
    );
    expect(label(tool('ui_tree', '{}'))).toBe('Read [the window]');
    expect(label(tool('search_docs', '{"query":"print on both sides"}'))).toBe('Searched the help for [“print on both sides”]');
    expect(label(tool('my_plugin_tool', '{"rootId":'))).toBe('Ran [my_plugin_tool]');
  });

  it('speaks Portuguese, lists included', () => {
    const pt = createI18n('pt-BR');
    expect(label(tool('ui_action', '{"action":"click","id":"k3"}', { target: 'Salvar' }), pt)).toBe('Cliquei em [Salvar]');
    expect(label(tool('ui_fill_form', '{"fields":[{"label":"Nome"},{"label":"Cidade"}]}'), pt)).toBe('Preenchi [Nome e Cidade]');
  });

  it('says why a call failed without its code, and keeps the raw arguments for the opened card', () => {
    const failed = (message: string) => failureLine(tool('ui_action', '{}', { status: 'failed', message }), EN.t);
    expect(failed('set_value failed: NOT_SETTABLE: element does not support set_value')).toBe('That element cannot take a value directly.');
    expect(failed('the window did not close\nmore')).toBe('the window did not close');
    expect(failureLine(tool('ui_action', '{}', { status: 'ok', message: 'fine' }), EN.t)).toBeUndefined();
    expect(prettyArguments('{"rootId":')).toBe('{"rootId":');
    expect(prettyArguments('{"a":1}')).toBe('{\n  "a": 1\n}');
  });
});
