import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { suggestPrompts } from './suggestions';

let count = 0;
function node(role: string, name = '', children: UiNode[] = [], extra: Partial<UiNode> = {}): UiNode {
  count += 1;
  return { id: `n${count}`, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], children, ...extra } as UiNode;
}

describe('suggested prompts', () => {
  it('offers to fill a form when the app shows one', () => {
    const form = node('window', 'Sign up', [
      node('textfield', 'Name'),
      node('textfield', 'Email'),
      node('textfield', 'Password', [], { states: { enabled: true, focused: false, secret: true } }),
      node('button', 'Send'),
    ]);
    expect(suggestPrompts(form)).toEqual(['whatCanIDo', 'fillForm', 'summarize']);
  });

  it('offers to read a document with text in it first, then settings', () => {
    const editor = node('window', 'notes.txt', [
      node('document', '', [], { value: 'word '.repeat(200) }),
      ...['Wrap', 'Spell check', 'Line numbers'].map((name) => node('checkbox', name)),
    ]);
    expect(suggestPrompts(editor)).toEqual(['whatCanIDo', 'readDocument', 'changeSettings']);
  });

  it('falls back to what to do and a summary for an app with nothing special', () => {
    expect(suggestPrompts(node('window', 'Calculator', [node('button', '1'), node('button', '+')]))).toEqual(['whatCanIDo', 'summarize']);
    const list = node('window', 'Files', [
      node(
        'list',
        '',
        Array.from({ length: 12 }, (_, index) => node('listitem', `file ${index}`)),
      ),
    ]);
    expect(suggestPrompts(list)).toEqual(['whatCanIDo', 'findItem', 'summarize']);
  });
});
