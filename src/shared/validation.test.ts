import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeIssues } from './validation';

const schema = z.strictObject({ name: z.string(), count: z.number().int().max(3).optional(), inner: z.strictObject({ flag: z.boolean() }).optional() });

function problems(input: unknown, options: { subject?: string; max?: number } = {}): string {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  return describeIssues(parsed.error.issues, { input, ...options });
}

describe('describeIssues', () => {
  it('names a missing field with the type it needs, for a subject when there is one', () => {
    expect(problems({})).toBe("'name' is required (string)");
    expect(problems({}, { subject: "'click'" })).toBe("'click' needs 'name' (string)");
  });

  it('names unknown fields, nested ones by their path', () => {
    expect(problems({ name: 'a', colour: 1, size: 2 })).toBe("unknown fields 'colour', 'size'");
    expect(problems({ name: 'a', inner: { flag: true, extra: 1 } })).toBe("unknown field 'inner.extra'");
  });

  it("keeps zod's own words for a wrong value, and never quotes the value", () => {
    const text = problems({ name: 'a', count: 'sk-secret-key' });
    expect(text).toMatch(/^'count': /);
    expect(text).not.toContain('sk-secret');
  });

  it('lists the choices of a discriminated union', () => {
    const union = z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]);
    const parsed = union.safeParse({ kind: 'c' });
    expect(describeIssues(parsed.error?.issues ?? [], { input: { kind: 'c' } })).toBe('\'kind\' must be one of a, b; got "c"');
  });

  it('lists the choices of an enum', () => {
    const parsed = z.object({ size: z.enum(['small', 'large']) }).safeParse({ size: 'huge' });
    expect(describeIssues(parsed.error?.issues ?? [], { input: { size: 'huge' } })).toBe('\'size\' must be one of small, large; got "huge"');
  });

  it('stops at max issues', () => {
    expect(problems({ count: 9, extra: 1 }, { max: 1 }).split('; ')).toHaveLength(1);
  });
});
