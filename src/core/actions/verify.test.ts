import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { isTransient } from './verify';

function node(role: UiNode['role']): UiNode {
  return { id: 'abcde', role, platformRole: role, name: 'Subscribe', states: { enabled: true, focused: false }, actions: [], children: [] };
}

const click = { action: 'click', id: 'abcde' } as const;

describe('isTransient', () => {
  it("takes a check box's focus as no sign its click landed: only its checked state is the effect", () => {
    for (const role of ['checkbox', 'radio', 'switch', 'togglebutton', 'menuitem'] as const) {
      expect(isTransient(click, node(role), 'states.focused: false → true')).toBe(true);
      expect(isTransient(click, node(role), 'states.checked: false → true')).toBe(false);
    }
  });

  it('takes a pushed button shown checked, or focused, as a press showing; a text field focused by a click is an effect', () => {
    expect(isTransient(click, node('button'), 'states.checked: false → true')).toBe(true);
    expect(isTransient(click, node('button'), 'states.focused: false → true')).toBe(true);
    expect(isTransient(click, node('textfield'), 'states.focused: false → true')).toBe(false);
    expect(isTransient(click, node('button'), 'name: "Clicked 0 times" → "Clicked 1 time"')).toBe(false);
  });

  it('takes focus as no sign typed text arrived, except in a secret field', () => {
    const type = { action: 'type', id: 'abcde', text: 'x' } as const;
    expect(isTransient(type, node('textfield'), 'states.focused: false → true')).toBe(true);
    const secret = { ...node('textfield'), states: { enabled: true, focused: false, secret: true } };
    expect(isTransient(type, secret, 'states.focused: false → true')).toBe(false);
  });
});
