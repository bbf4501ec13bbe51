import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { redactSecrets } from './redact';

describe('redactSecrets', () => {
  it('drops secret values at any depth and keeps the rest', () => {
    const tree: UiNode = {
      id: 'w',
      role: 'window',
      platformRole: 'frame',
      name: 'Login',
      states: { enabled: true, focused: false },
      actions: [],
      children: [
        { id: 'u', role: 'textfield', platformRole: 'entry', name: 'User', value: 'ada', states: { enabled: true, focused: false }, actions: [] },
        {
          id: 'p',
          role: 'textfield',
          platformRole: 'password text',
          name: 'Password',
          value: 'hunter2',
          states: { enabled: true, focused: false, secret: true },
          actions: [],
        },
      ],
    };
    const redacted = redactSecrets(tree);
    expect(JSON.stringify(redacted)).not.toContain('hunter2');
    expect(redacted.children?.[0]?.value).toBe('ada');
    expect(redacted.children?.[1]).not.toHaveProperty('value');
  });

  it('keeps every other field in its order, the kept value last, as a spread of the rest would', () => {
    const leaf: UiNode = {
      id: 'v',
      role: 'textfield',
      platformRole: 'entry',
      name: 'N',
      value: 'x',
      states: { enabled: true, focused: false },
      actions: ['press'],
    };
    const tree: UiNode = {
      id: 'r',
      role: 'window',
      platformRole: 'frame',
      name: 'W',
      value: 'top',
      states: { enabled: true, focused: false },
      actions: [],
      children: [leaf],
    };
    const spread = (node: UiNode): UiNode => {
      const children = node.children?.map(spread);
      const { value, ...rest } = node;
      const kept: UiNode = node.states.secret || value === undefined ? rest : { ...rest, value };
      return children === undefined ? kept : { ...kept, children };
    };
    expect(JSON.stringify(redactSecrets(tree))).toBe(JSON.stringify(spread(tree)));
    expect(redactSecrets(tree).children?.[0]).not.toBe(leaf);
  });
});
