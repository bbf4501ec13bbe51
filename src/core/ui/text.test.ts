import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { ownText } from './text';

const node = (extra: Partial<UiNode>): UiNode => ({
  id: 'a1b2c',
  role: 'textfield',
  platformRole: 'text',
  name: 'Name',
  states: { enabled: true, focused: false },
  actions: [],
  ...extra,
});

describe('ownText', () => {
  it('gives the name, the value and the description, each once', () => {
    expect(ownText(node({ value: 'Ada', description: 'Your full name' }))).toEqual(['Name', 'Ada', 'Your full name']);
    expect(ownText(node({ value: 'Name', description: 'Name' }))).toEqual(['Name']);
    expect(ownText(node({ name: '', value: '' }))).toEqual([]);
  });

  it('does not repeat a number value that equals the name', () => {
    expect(ownText(node({ role: 'slider', name: '50', value: 50 }))).toEqual(['50']);
    expect(ownText(node({ role: 'slider', name: 'Volume', value: 50 }))).toEqual(['Volume', '50']);
  });

  it("never gives a secret field's value, whatever the tree holds", () => {
    const text = ownText(node({ name: 'Password', value: 'hunter2', states: { enabled: true, focused: false, secret: true } }));
    expect(text).toEqual(['Password', '(secret field; its value is never read)']);
  });
});
