import { describe, expect, it } from 'vitest';
import type { UiNode } from '../src/shared/ui-node';
import { OSWORLD_HEADER, osworldTable } from './osworld-table';

function node(id: string, role: UiNode['role'], name: string, extra: Partial<UiNode> = {}): UiNode {
  return {
    id,
    role,
    platformRole: `atspi-${role}`,
    name,
    states: { enabled: true, focused: false },
    actions: [],
    bounds: { x: 10, y: 20, width: 30, height: 40 },
    ...extra,
  };
}

describe('osworldTable', () => {
  it('prints the header and one tab-separated row per kept node', () => {
    const tree = node('w', 'window', 'App', {
      children: [
        node('g', 'group', 'Panel', {
          children: [
            node('b', 'button', 'OK', { description: 'Apply and close' }),
            node('t', 'textfield', 'Name', { value: 'Ada', bounds: { x: 1.4, y: 2.6, width: 100, height: 24 } }),
          ],
        }),
      ],
    });
    expect(osworldTable(tree).split('\n')).toEqual([
      OSWORLD_HEADER,
      'button\tOK\t\tatspi-button\tApply and close\t(10, 20)\t(30, 40)',
      'textfield\tName\tAda\tatspi-textfield\t\t(1, 3)\t(100, 24)',
    ]);
  });

  it('keeps only visible nodes with non-empty bounds, and never a secret value', () => {
    const hidden = { enabled: true, focused: false, visible: false };
    const tree = node('w', 'window', 'App', {
      children: [
        node('h', 'group', 'Hidden', { states: hidden, children: [node('x', 'button', 'Inside hidden')] }),
        node('hb', 'button', 'Hidden button', { states: hidden }),
        node('z', 'button', 'Zero size', { bounds: { x: 0, y: 0, width: 0, height: 0 } }),
        { id: 'n', role: 'button', platformRole: 'push button', name: 'No bounds', states: { enabled: true, focused: false }, actions: [] },
        node('p', 'textfield', 'Password', { value: 'hunter2', states: { enabled: true, focused: false, secret: true } }),
        node('d', 'document', 'Doc', { value: 'line 1\nline 2' }),
      ],
    });
    const rows = osworldTable(tree).split('\n');
    expect(rows).toEqual([
      OSWORLD_HEADER,
      'textfield\tPassword\t\tatspi-textfield\t\t(10, 20)\t(30, 40)',
      'document\tDoc\t"line 1\\nline 2"\tatspi-document\t\t(10, 20)\t(30, 40)',
    ]);
  });
});
