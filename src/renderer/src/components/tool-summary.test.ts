import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n';
import type { ChatEntry } from '../../../shared/transcript';
import type { ToolGist } from '../../../shared/tool-gist';
import { failureLine, prettyArguments, toolLabel } from './tool-summary';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

/** The tools describe their calls themselves (core/tools/gist.ts); these gists are what they say for these arguments. */
function tool(name: string, args: string, gist: ToolGist | undefined, extra: Partial<Entry> = {}): Entry {
  return { kind: 'tool', id: 'c1', askId: 'a', name, arguments: args, ...(gist === undefined ? {} : { gist }), status: 'ok', logs: [], ...extra };
}

const CLICK: ToolGist = { verb: 'click', unnamed: 'element', key: 'click k3x9a' };

const EN = createI18n('en');
const label = (entry: Entry, i18n = EN) => {
  const { before, strong, after } = toolLabel(entry, i18n.t, i18n.language);
  return `${before}[${strong}]${after}`;
};

describe('tool card labels', () => {
  it('says what each action did, in plain words, with the target in bold and never an id', () => {
    expect(label(tool('ui_action', '{"action":"click","id":"k3x9a"}', CLICK, { target: 'Save button', method: 'accessibility', changed: true }))).toBe(
      'Clicked [Save button]',
    );
    expect(
      label(
        tool(
          'ui_action',
          '{"action":"set_value","id":"k3x9a","value":"Ada"}',
          { verb: 'set_value', value: 'Ada', unnamed: 'element', key: '' },
          { target: 'Name textfield' },
        ),
      ),
    ).toBe('Set [Name textfield] to “Ada”');
    expect(label(tool('ui_action', '{"action":"click","id":"k3x9a"}', CLICK))).toBe('Clicked [an element]');
    expect(label(tool('ui_action', '{"action":"key","key":"s","modifiers":["ctrl"]}', { verb: 'key', target: 'ctrl+s', key: '' }))).toBe('Pressed [ctrl+s]');
    expect(label(tool('ui_action', '{"action":"click","id":"k3x9a"}', CLICK, { status: 'running' }))).toBe('Clicking [an element]…');
  });

  it('names the other tools by what they looked at', () => {
    expect(label(tool('ui_find', '{"role":"button","name":"Save"}', { verb: 'find', target: 'Save', quoted: true, key: '' }))).toBe('Looked for [“Save”]');
    expect(label(tool('ui_fill_form', '{"fields":[]}', { verb: 'fill', targets: ['Name', 'City', 'Email'], key: '' }))).toBe(
      'Filled in [Name, City, and Email]',
    );
    expect(label(tool('ui_tree', '{}', { verb: 'look', unnamed: 'window', key: '' }))).toBe('Read [the window]');
    expect(label(tool('search_docs', '{"query":"print on both sides"}', { verb: 'search_help', target: 'print on both sides', quoted: true, key: '' }))).toBe(
      'Searched the help for [“print on both sides”]',
    );
    expect(label(tool('my_plugin_tool', '{"rootId":', { verb: 'run', target: 'my_plugin_tool', key: '' }))).toBe('Ran [my_plugin_tool]');
  });

  it('reads an entry saved before calls carried a gist, or one with a verb it does not know, as "Ran <name>"', () => {
    expect(label(tool('ui_find', '{"name":"Save"}', undefined))).toBe('Ran [ui_find]');
    expect(label(tool('future_tool', '{}', { verb: 'teleport' as 'run', target: 'Mars', key: '' }))).toBe('Ran [future_tool]');
  });

  it('prefers the target the call names, then the node the result names, then a stand-in', () => {
    const focus: ToolGist = { verb: 'switch_app', target: 'Notes', key: '' };
    expect(label(tool('ui_focus_app', '{"name":"Notes"}', focus, { target: 'Other' }))).toBe('Switched to [Notes]');
    expect(label(tool('ui_action', '{"action":"scroll"}', { verb: 'scroll', unnamed: 'page', key: '' }))).toBe('Scrolled [the page]');
    expect(label(tool('ui_action', '{"action":"scroll"}', { verb: 'scroll', unnamed: 'page', key: '' }, { target: 'Files list' }))).toBe(
      'Scrolled [Files list]',
    );
  });

  it('speaks Portuguese, lists included', () => {
    const pt = createI18n('pt-BR');
    expect(label(tool('ui_action', '{"action":"click","id":"k3"}', CLICK, { target: 'Salvar' }), pt)).toBe('Cliquei em [Salvar]');
    expect(label(tool('ui_fill_form', '{}', { verb: 'fill', targets: ['Nome', 'Cidade'], key: '' }), pt)).toBe('Preenchi [Nome e Cidade]');
  });

  it('says why a call failed without its code, and keeps the raw arguments for the opened card', () => {
    const failed = (message: string) => failureLine(tool('ui_action', '{}', CLICK, { status: 'failed', message }), EN.t);
    expect(failed('set_value failed: NOT_SETTABLE: element does not support set_value')).toBe('That element cannot take a value directly.');
    expect(failed('the window did not close\nmore')).toBe('the window did not close');
    expect(failureLine(tool('ui_action', '{}', CLICK, { status: 'ok', message: 'fine' }), EN.t)).toBeUndefined();
    expect(prettyArguments('{"rootId":')).toBe('{"rootId":');
    expect(prettyArguments('{"a":1}')).toBe('{\n  "a": 1\n}');
  });
});
