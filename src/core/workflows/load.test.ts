import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors';
import { formatWorkflow, parseWorkflow } from './load';
import { fill, parseVars, resolveValues } from './params';
import { MAX_STEPS, MAX_WORKFLOW_BYTES } from './schema';

const click = { action: 'click', target: { role: 'button', name: 'Save' } };

function file(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ format: 'deskpilot-workflow', version: 1, name: 'save', app: {}, steps: [click], ...extra });
}

describe('parseWorkflow', () => {
  it('reads a valid file and writes it back the same', () => {
    const workflow = parseWorkflow(file());
    expect(parseWorkflow(formatWorkflow(workflow))).toEqual(workflow);
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['another format', JSON.stringify({ format: 'x' }), /not a Deskpilot workflow/],
    ['a newer version', file({ version: 2 }), /version/],
    ['an unknown field', file({ run: 'rm -rf /' }), /unknown field 'run'/],
    ['an unknown action', file({ steps: [{ ...click, action: 'exec' }] }), /steps\.0\.action/],
    ['an unknown role', file({ steps: [{ ...click, target: { role: 'bomb', name: 'x' } }] }), /role/],
    ['too many steps', file({ steps: Array.from({ length: MAX_STEPS + 1 }, () => click) }), /steps/],
    ['a huge name', file({ steps: [{ ...click, target: { role: 'button', name: 'x'.repeat(5_000) } }] }), /name/],
    ['an undeclared parameter', file({ steps: [{ action: 'type', target: { role: 'textfield', name: 'A' }, text: '{{who}}' }] }), /\{\{who\}\}/],
    ['a secret with a default', file({ parameters: { pin: { secret: true, default: '1234' } } }), /secret parameter 'pin'/],
    ...(['target', 'intent', 'expect', 'key'] as const).map((where): [string, string, RegExp] => {
      const pin = '{{pin}}';
      const step =
        where === 'key'
          ? { action: 'key', key: pin }
          : {
              action: 'set_value',
              target: { role: 'textfield', name: where === 'target' ? pin : 'PIN' },
              value: pin,
              ...(where === 'intent' ? { intent: `enter ${pin}` } : {}),
              ...(where === 'expect' ? { expect: { value: pin } } : {}),
            };
      return [
        `a secret used in a step's ${where}, where it would be printed`,
        file({ parameters: { pin: { secret: true } }, steps: [step] }),
        /step 1 uses secret parameter 'pin' outside a set_value value or a type text/,
      ];
    }),
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseWorkflow(text)).toThrow(ValidationError);
    expect(() => parseWorkflow(text)).toThrow(message);
  });

  it('refuses an oversized file before parsing it', () => {
    expect(() => parseWorkflow(' '.repeat(MAX_WORKFLOW_BYTES + 1))).toThrow(/larger than/);
  });

  it('never echoes a parameter value in its errors', () => {
    expect(() => parseWorkflow(file({ parameters: { pin: { secret: true, default: 's3cr3t-value' } } }))).not.toThrow(/s3cr3t/);
  });
});

describe('parameters', () => {
  const workflow = parseWorkflow(
    file({
      parameters: { who: { default: 'Ada' }, pin: { secret: true } },
      steps: [{ action: 'type', target: { role: 'textfield', name: 'A' }, text: '{{who}} {{pin}}' }],
    }),
  );

  it('fill once, so a value cannot pull in another parameter', () => {
    expect(fill('{{who}}:{{pin}}', { who: '{{pin}}', pin: '1' })).toBe('{{pin}}:1');
  });

  it('take given values over defaults, and refuse unknown or missing ones', () => {
    expect(resolveValues(workflow, { pin: '1' })).toEqual({ who: 'Ada', pin: '1' });
    expect(() => resolveValues(workflow, {})).toThrow(/--var pin=/);
    expect(() => resolveValues(workflow, { pin: '1', nope: 'x' })).toThrow(/no parameter 'nope'/);
  });

  it('parse --var NAME=VALUE, splitting at the first =', () => {
    expect(parseVars(['a=b=c', 'e='])).toEqual({ a: 'b=c', e: '' });
    expect(() => parseVars(['novalue'])).toThrow(/NAME=VALUE/);
    expect(() => parseVars(['1x=2'])).toThrow(/NAME=VALUE/);
    // The value after '=' may be a password: only the name is echoed.
    expect(() => parseVars(['pass word=hunter2'])).toThrow("got 'pass word=…'");
  });
});
