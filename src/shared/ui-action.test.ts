import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors';
import { parseUiActionRequest } from './ui-action';

function problem(input: unknown): string {
  try {
    parseUiActionRequest(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('VALIDATION');
    return (error as Error).message;
  }
  throw new Error('expected a validation error');
}

describe('parseUiActionRequest', () => {
  it('accepts each of the six actions', () => {
    expect(parseUiActionRequest({ action: 'click', id: 'a' })).toEqual({ action: 'click', id: 'a' });
    expect(parseUiActionRequest({ action: 'set_value', id: 'a', value: 3 })).toMatchObject({ value: 3 });
    expect(parseUiActionRequest({ action: 'type', id: 'a', text: 'hi' })).toMatchObject({ text: 'hi' });
    expect(parseUiActionRequest({ action: 'scroll', id: 'a', direction: 'up', amount: 2 })).toMatchObject({ amount: 2 });
    expect(parseUiActionRequest({ action: 'drag', id: 'a', toId: 'b', settleMs: 200 })).toMatchObject({ toId: 'b' });
    expect(parseUiActionRequest({ action: 'key', key: 'Enter' })).toEqual({ action: 'key', key: 'return', modifiers: [] });
  });

  it('names the missing field: text for type, toId for drag, id for click', () => {
    expect(problem({ action: 'type', id: 'a' })).toContain("'type' needs 'text'");
    expect(problem({ action: 'drag', id: 'a' })).toContain("'drag' needs 'toId'");
    expect(problem({ action: 'click' })).toContain("'click' needs 'id'");
    expect(problem({ action: 'set_value', id: 'a' })).toContain("'set_value' needs 'value'");
  });

  it('rejects unknown actions, unknown fields and bad values', () => {
    expect(problem({ action: 'tap', id: 'a' })).toContain("'action' must be one of click, set_value, type, key, scroll, drag");
    expect(problem({ action: 'click', id: 'a', target: 'b' })).toContain("unknown field 'target' for 'click'");
    expect(problem({ action: 'scroll', id: 'a', direction: 'sideways' })).toContain("'direction'");
    expect(problem({ action: 'click', id: 'a', settleMs: -1 })).toContain("'settleMs'");
    expect(problem({ action: 'type', id: 'a', text: '' })).toContain('text to type');
    expect(problem({ action: 'drag', id: 'a', toId: 'a' })).toContain('differ');
    expect(problem('click')).toContain('invalid ui_action');
  });

  it('splits key combos and normalizes key and modifier names', () => {
    expect(parseUiActionRequest({ action: 'key', key: 'Ctrl+Shift+S' })).toEqual({ action: 'key', key: 's', modifiers: ['ctrl', 'shift'] });
    expect(parseUiActionRequest({ action: 'key', key: 'a', modifiers: ['CMD', 'cmd'] })).toMatchObject({ modifiers: ['cmd'] });
    expect(parseUiActionRequest({ action: 'key', key: 'ctrl++' })).toMatchObject({ key: '+', modifiers: ['ctrl'] });
    expect(parseUiActionRequest({ action: 'key', key: 'F12' })).toMatchObject({ key: 'f12' });
    expect(problem({ action: 'key', key: 'hyper+x' })).toContain("unknown modifier 'hyper'");
    expect(problem({ action: 'key', key: 'launchrocket' })).toContain("unknown key 'launchrocket'");
  });
});
