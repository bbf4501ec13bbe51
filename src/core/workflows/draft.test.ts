import { describe, expect, it } from 'vitest';
import { describeStep, keepParameters, suggestFileName } from './draft';
import { parseWorkflow } from './load';

const WORKFLOW = parseWorkflow(
  JSON.stringify({
    format: 'deskpilot-workflow',
    version: 1,
    name: 'fill',
    app: { name: 'Fixture' },
    parameters: { name: { default: 'Ada' }, city: { default: 'Lisbon' }, password: { secret: true } },
    steps: [
      { action: 'set_value', target: { role: 'textfield', name: 'Name' }, value: '{{name}}', expect: { value: '{{name}}' } },
      { action: 'set_value', target: { role: 'textfield', name: 'City' }, value: '{{city}}', expect: { value: '{{city}}' } },
      { action: 'type', target: { role: 'textfield', name: 'Password' }, text: '{{password}}' },
    ],
  }),
);

describe('keepParameters', () => {
  it('writes the dropped ones in as fixed values and keeps the chosen and the secret ones', () => {
    const kept = keepParameters(WORKFLOW, ['name']);
    expect(Object.keys(kept.parameters ?? {})).toEqual(['name', 'password']);
    expect(kept.steps[1]).toMatchObject({ value: 'Lisbon', expect: { value: 'Lisbon' } });
    expect(kept.steps[0]).toMatchObject({ value: '{{name}}' });
    // Still a valid workflow: every placeholder left is declared.
    expect(() => parseWorkflow(JSON.stringify(kept))).not.toThrow();
  });

  it('never writes a secret in, even when not kept', () => {
    const kept = keepParameters(WORKFLOW, []);
    expect(kept.parameters).toEqual({ password: { secret: true } });
    expect(kept.steps[2]).toMatchObject({ text: '{{password}}' });
  });
});

describe('describeStep and suggestFileName', () => {
  it('says a step in words and makes a file name from the question', () => {
    expect(describeStep(WORKFLOW.steps[0] as never)).toBe('set_value textfield "Name" to "{{name}}"');
    expect(suggestFileName('Fill the form with Ada, ada@example.com please')).toBe('fill-the-form-with-ada-ada-example-com');
    expect(suggestFileName('!!!')).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]*$/);
  });
});
