import { describe, expect, it } from 'vitest';
import { failureOf, withFailure } from './failure';

describe('failureOf', () => {
  it('is undefined for a success, and leaves it untouched', () => {
    const ok = { success: true, message: 'done' };
    expect(failureOf(ok)).toBeUndefined();
    expect(withFailure(ok)).toBe(ok);
  });

  it('takes the serialized error a result carries in its data (a thrown tool, an action result)', () => {
    const error = { code: 'NODE_NOT_FOUND', message: 'gone', isRetryable: false, data: { candidates: ['b1'] } } as const;
    expect(failureOf({ success: false, message: 'NODE_NOT_FOUND: gone', data: { error } })).toEqual(error);
  });

  it('builds one from data.code, as the safety gate and approvals report DENIED and SECRET_FIELD', () => {
    expect(failureOf({ success: false, message: 'DENIED: the user declined ui_action', data: { code: 'DENIED', approvalId: 'a1' } })).toEqual({
      code: 'DENIED',
      message: 'the user declined ui_action',
      isRetryable: false,
    });
    expect(failureOf({ success: false, message: 'REFUSED: [t1] "Password" is a secret field', data: { code: 'SECRET_FIELD', id: 't1' } })).toMatchObject({
      code: 'SECRET_FIELD',
      message: 'REFUSED: [t1] "Password" is a secret field',
    });
  });

  it("reads a known code at the message's start, and calls anything else ACTION_FAILED", () => {
    expect(failureOf({ success: false, message: 'VALIDATION: invalid arguments' })).toMatchObject({ code: 'VALIDATION', message: 'invalid arguments' });
    expect(failureOf({ success: false, message: "unknown tool 'x'" })).toEqual({ code: 'ACTION_FAILED', message: "unknown tool 'x'", isRetryable: false });
    expect(failureOf({ success: false, message: 'NOT_A_CODE: x' })).toMatchObject({ code: 'ACTION_FAILED', message: 'NOT_A_CODE: x' });
  });

  it('keeps an error the tool set itself', () => {
    const error = { code: 'TIMEOUT', message: 'slow', isRetryable: true } as const;
    const result = { success: false, message: 'slow', error };
    expect(withFailure(result)).toBe(result);
  });
});
