import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { findNodes, levenshtein, textScore } from './query';

function node(id: string, role: UiNode['role'], name: string, extra: Partial<UiNode> = {}): UiNode {
  return { id, role, platformRole: `raw-${role}`, name, states: { enabled: true, focused: false }, actions: [], ...extra };
}

const root = node('w', 'window', 'Editor', {
  children: [
    node('b1', 'button', 'Save'),
    node('b2', 'button', 'Save As…'),
    node('b3', 'button', 'Cancel'),
    node('t1', 'textfield', 'Search', { value: 'quarterly report' }),
    node('p1', 'textfield', 'Password', { value: 'hunter2', states: { enabled: true, focused: false, secret: true } }),
    node('l1', 'label', 'Status', { description: 'Document saved' }),
  ],
});

describe('textScore', () => {
  it('ranks exact over case-insensitive over prefix over substring', () => {
    const scores = ['Save', 'save', 'Save As', 'Autosave'].map((candidate) => textScore('Save', candidate));
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores[0]).toBe(1);
  });

  it('forgives a typo', () => {
    expect(textScore('Cancle', 'Cancel')).toBeGreaterThan(0.45);
    expect(textScore('Cancle', 'Password')).toBeLessThan(0.45);
  });

  it('computes edit distance', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
  });
});

describe('findNodes', () => {
  it('filters by role and ranks by name', () => {
    const ids = findNodes(root, { role: 'button', name: 'save' }).map((match) => match.node.id);
    expect(ids).toEqual(['b1', 'b2']);
  });

  it('matches the platform role too', () => {
    expect(findNodes(root, { role: 'raw-label' }).map((match) => match.node.id)).toEqual(['l1']);
  });

  it('searches text in name, value and description', () => {
    expect(findNodes(root, { text: 'quarterly' })[0]?.node.id).toBe('t1');
    expect(findNodes(root, { text: 'saved' })[0]?.node.id).toBe('l1');
  });

  it('never matches on the value of a secret field', () => {
    expect(findNodes(root, { text: 'hunter2' }).map((match) => match.node.id)).not.toContain('p1');
  });

  it('finds by fuzzy name and honours the limit', () => {
    expect(findNodes(root, { name: 'Cancle' })[0]?.node.id).toBe('b3');
    expect(findNodes(root, { role: 'button', limit: 2 })).toHaveLength(2);
  });
});

describe('role queries', () => {
  const family = node('w', 'window', 'Form', {
    children: [
      node('b', 'button', 'OK'),
      node('m', 'togglebutton', 'Menu', { platformRole: 'toggle button' }),
      node('c', 'checkbox', 'Bold'),
      node('s', 'switch', 'Wi-Fi'),
      node('e', 'textfield', 'Name'),
      node('a', 'textarea', 'Notes'),
      node('p', 'button', 'Apply', { platformRole: 'push button' }),
    ],
  });
  const ids = (role: string): string[] => findNodes(family, { role }).map((match) => match.node.id);

  it('matches the family a person means: buttons include toggle (menu) buttons, text fields include text areas', () => {
    expect(ids('button')).toEqual(['b', 'm', 'p']);
    expect(ids('checkbox')).toEqual(['c', 's']);
    expect(ids('textfield')).toEqual(['e', 'a']);
    // A narrower role stays narrow.
    expect(ids('togglebutton')).toEqual(['m']);
    expect(ids('textarea')).toEqual(['a']);
  });

  it('takes synonyms and raw platform roles, in any case and spacing', () => {
    expect(ids('Push Button')).toEqual(['b', 'm', 'p']);
    expect(ids('entry')).toEqual(['e', 'a']);
    expect(ids('toggle_button')).toEqual(['m']);
  });

  it('refuses an unknown role with the list of roles instead of finding nothing', () => {
    expect(() => findNodes(family, { role: 'buton' })).toThrow(/unknown role 'buton'\. Roles: application, window, .*button.*textfield/);
    expect(() => findNodes(family, { role: 'buton' })).toThrow(expect.objectContaining({ code: 'VALIDATION' }) as Error);
  });
});
