import { describe, expect, it } from 'vitest';
import { parseUiActionRequest } from '../../shared/ui-action';
import type { UiNode } from '../../shared/ui-node';
import { actionRisk } from './action-risk';
import { riskyCombo } from './risk';

function node(id: string, extra: Partial<UiNode> = {}): UiNode {
  return { id, role: 'button', platformRole: 'push button', name: '', states: { enabled: true, focused: false }, actions: ['press'], ...extra };
}

const tree = (...children: UiNode[]): UiNode => node('root', { role: 'window', children });

describe('actionRisk', () => {
  it("reads the text a person sees: an OCR line, a guessed name, a tooltip, an icon button's inner label", () => {
    const root = tree(
      node('ocr01', { role: 'text', name: 'Move to Trash', source: 'ocr', actions: ['press'] }),
      node('guess', { role: 'checkbox', name: 'Apagar tudo', nameFrom: 'geometry' }),
      node('tip01', { description: 'Sign out of every device' }),
      node('icon1', { children: [node('inner', { role: 'label', name: 'Excluir conversa' })] }),
      node('safe1', { name: 'Save' }),
    );
    for (const id of ['ocr01', 'guess', 'tip01', 'icon1']) expect(actionRisk({ action: 'click', id }, root, 'linux'), id).toMatchObject({ code: 'clicks' });
    expect(actionRisk({ action: 'click', id: 'safe1' }, root, 'linux')).toBeUndefined();
  });

  it('counts a key on a control, or on the focused one, as activating it; plain delete off text moves to the trash', () => {
    const root = tree(node('del01', { name: 'Delete', states: { enabled: true, focused: true } }), node('field', { role: 'textfield', name: 'Notes' }));
    expect(actionRisk({ action: 'key', key: 'return' }, root, 'linux')).toMatchObject({ code: 'clicks' });
    expect(actionRisk({ action: 'key', id: 'del01', key: 'tab' }, root, 'linux')).toMatchObject({ code: 'clicks' });
    const files = tree(node('file1', { role: 'listitem', name: 'report.pdf', states: { enabled: true, focused: true } }));
    expect(actionRisk({ action: 'key', key: 'delete' }, files, 'linux')).toMatchObject({ code: 'deletesKey' });
    expect(actionRisk({ action: 'key', id: 'field', key: 'delete' }, root, 'linux')).toBeUndefined();
    expect(actionRisk({ action: 'type', id: 'field', text: 'delete me' }, root, 'linux')).toBeUndefined();
    expect(actionRisk({ action: 'type', id: 'del01', text: ' ' }, root, 'linux')).toMatchObject({ code: 'clicks' });
  });

  it('reads combos as the engine does on each platform', () => {
    expect(riskyCombo('mod+q', [], 'darwin')).toMatchObject({ values: { combo: 'meta+q' } });
    expect(riskyCombo('mod+q', [], 'linux')).toMatchObject({ values: { combo: 'ctrl+q' } });
    expect(riskyCombo('q', ['cmdorctrl'])).toBeDefined();
    expect(riskyCombo('ctrl+f4')).toBeDefined();
    expect(riskyCombo('kp_enter', ['ctrl'])).toBeUndefined(); // the engine refuses it: nothing is pressed
  });
});

describe('the canonical spelling', () => {
  it('is a fixed point of the engine parse, so the engine reads what the gate judged', () => {
    const spellings: unknown[] = [
      { action: 'click', id: ' ab12c\n' },
      { action: 'key', key: 'Control+Shift+Q', modifiers: ['CmdOrCtrl'] },
      { action: 'key', key: 'mod+Enter', id: '\tab12c' },
      { action: 'key', key: '+', modifiers: ['shift'] },
      { action: 'drag', id: ' a ', toId: 'b ' },
      { action: 'set_value', id: 'x1', value: ' padded ' },
    ];
    for (const spelling of spellings) {
      const once = parseUiActionRequest(spelling);
      expect(parseUiActionRequest(once), JSON.stringify(spelling)).toEqual(once);
    }
  });
});

describe('Return in a dialog', () => {
  it('is judged as the dialog’s risky button, whether pressed as a key or typed as a line break', () => {
    const field = node('field', { role: 'textfield', name: 'Name', states: { enabled: true, focused: true } });
    const dialog = node('dlg01', {
      role: 'dialog',
      name: 'Replace file?',
      children: [field, node('ok001', { name: 'Overwrite' }), node('no001', { name: 'Cancel' })],
    });
    const root = tree(dialog);
    expect(actionRisk({ action: 'key', key: 'return' }, root, 'linux')).toMatchObject({ code: 'clicks', values: { name: '"Overwrite"' } });
    expect(actionRisk({ action: 'type', id: 'field', text: 'report.pdf\n' }, root, 'linux')).toMatchObject({ code: 'clicks' });
    expect(actionRisk({ action: 'type', id: 'field', text: 'report.pdf' }, root, 'linux')).toBeUndefined();
    expect(actionRisk({ action: 'key', key: 'tab' }, root, 'linux')).toBeUndefined();
    const plain = tree(node('field', { role: 'textfield', name: 'Search', states: { enabled: true, focused: true } }), node('del01', { name: 'Delete' }));
    expect(actionRisk({ action: 'key', key: 'return' }, plain, 'linux')).toBeUndefined();
  });
});
