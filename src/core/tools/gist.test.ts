import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isToolVerb } from '../../shared/tool-gist';
import { builtinTools } from './builtin';
import { gistOf } from './gist';
import { defineTool } from './types';

const tool = (name: string) => builtinTools().find((each) => each.name === name);
const gist = (name: string, args: unknown) => gistOf(tool(name), name, JSON.stringify(args));

describe('tool gists: each tool says what a call does, for people', () => {
  it('every built-in tool describes itself with a verb the catalogs know', () => {
    for (const each of builtinTools()) {
      expect(each.describe, each.name).toBeTypeOf('function');
      const made = gistOf(each, each.name, '{}');
      expect(isToolVerb(made.verb), each.name).toBe(true);
      expect(made.verb, each.name).not.toBe('run');
    }
  });

  it('names the action, its keys and the text it puts in; the id only in the short key', () => {
    expect(gist('ui_action', { action: 'click', id: 'k3x9a' })).toEqual({ verb: 'click', unnamed: 'element', key: 'click k3x9a' });
    expect(gist('ui_action', { action: 'key', key: 's', modifiers: ['ctrl'] })).toEqual({
      verb: 'key',
      target: 'ctrl+s',
      key: 'key key="s" modifiers=["ctrl"]',
    });
    expect(gist('ui_action', { action: 'set_value', id: 'k3', value: 'Ada' })).toMatchObject({ verb: 'set_value', value: 'Ada', unnamed: 'element' });
    expect(gist('ui_action', { action: 'scroll', id: 'k3', direction: 'down' })).toMatchObject({
      verb: 'scroll',
      unnamed: 'page',
      key: 'scroll k3 direction="down"',
    });
    // An action the schema does not have still reads as acting on something.
    expect(gist('ui_action', { action: 'hover', id: 'k3' })).toMatchObject({ verb: 'act', unnamed: 'element' });
  });

  it('names what the other tools looked for or at', () => {
    expect(gist('ui_find', { role: 'button', name: 'Save' })).toEqual({ verb: 'find', target: 'Save', quoted: true, key: 'role="button" name="Save"' });
    expect(gist('ui_find', { role: 'checkbox' })).toMatchObject({ verb: 'find', target: 'checkbox' });
    expect(gist('ui_wait_for', {})).toMatchObject({ verb: 'wait', unnamed: 'element' });
    expect(gist('ui_tree', { app: 'gedit' })).toMatchObject({ verb: 'look', target: 'gedit', unnamed: 'window' });
    expect(gist('ui_focus_app', { name: 'Notes' })).toMatchObject({ verb: 'switch_app', target: 'Notes' });
    expect(gist('ui_fill_form', { fields: [{ label: 'Name', value: 1 }, { value: 2 }, { label: 'City', value: 3 }] })).toMatchObject({
      verb: 'fill',
      targets: ['Name', 'City'],
    });
    expect(gist('search_docs', { query: 'print on both sides' })).toMatchObject({ verb: 'search_help', target: 'print on both sides', quoted: true });
  });

  it('reads any other tool, or a name no tool has, as running it by its title or name', () => {
    const plugin = defineTool({
      name: 'odd__echo',
      title: 'odd › echo',
      description: '',
      schema: z.looseObject({}),
      handler: () => Promise.resolve({ success: true, message: '' }),
    });
    expect(gistOf(plugin, plugin.name, '{"text":"hi"}')).toEqual({ verb: 'run', target: 'odd › echo', key: 'text="hi"' });
    expect(gistOf(undefined, 'no_such_tool', '{"a":1}')).toEqual({ verb: 'run', target: 'no_such_tool', key: 'a=1' });
  });

  it('keeps bad JSON as the key and bounds every string a model wrote', () => {
    expect(gistOf(tool('ui_tree'), 'ui_tree', '{"rootId":')).toEqual({ verb: 'run', target: 'Accessibility tree', key: '(bad JSON) {"rootId":' });
    expect(gistOf(tool('ui_tree'), 'ui_tree', '[1,2]').key).toBe('[1,2]');
    const made = gist('ui_action', { action: 'type', id: 'k3', text: `${'x'.repeat(5000)}\n\nend` });
    expect(made.value?.length).toBeLessThanOrEqual(200);
    expect(made.key.length).toBeLessThanOrEqual(120);
    expect(gist('ui_fill_form', { fields: Array.from({ length: 50 }, (_, index) => ({ label: `f${index}`, value: 1 })) }).targets).toHaveLength(20);
  });
});
