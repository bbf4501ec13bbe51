import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { diffNodes } from './diff';

const base: UiNode = {
  id: 'a1',
  role: 'textfield',
  platformRole: 'entry',
  name: 'Name',
  value: 'Ada',
  states: { enabled: true, focused: false, editable: true },
  bounds: { x: 1, y: 2, width: 3, height: 4 },
  actions: [],
};

describe('diffNodes', () => {
  it('finds nothing between equal snapshots', () => {
    expect(diffNodes(base, structuredClone(base))).toEqual([]);
  });

  it('names each field that changed', () => {
    const after: UiNode = { ...base, value: 'Ada L', states: { ...base.states, focused: true }, bounds: { x: 1, y: 5, width: 3, height: 4 } };
    expect(diffNodes(base, after)).toEqual([
      'value: "Ada" → "Ada L"',
      'states.focused: false → true',
      'bounds: {"x":1,"y":2,"width":3,"height":4} → {"x":1,"y":5,"width":3,"height":4}',
    ]);
  });

  it('sees a state that appears, a name change and a change in child count', () => {
    const after: UiNode = { ...base, name: 'Full name', states: { ...base.states, checked: true }, childCount: 2 };
    expect(diffNodes({ ...base, childCount: 1 }, after)).toEqual(['name: "Name" → "Full name"', 'states.checked: none → true', 'children: 1 → 2']);
  });

  it('sees a change deep inside a container', () => {
    const child = (value: string): UiNode => ({ ...base, id: 'c', value });
    const list = (value: string): UiNode => ({ ...base, id: 'l', role: 'list', children: [child(value)] });
    expect(diffNodes(list('x'), list('y'))).toEqual(['contents changed']);
  });

  it('never reports the value of a secret field', () => {
    const secret: UiNode = { ...base, states: { ...base.states, secret: true } };
    expect(diffNodes(secret, { ...secret, value: 'hunter2' })).toEqual([]);
  });
});
