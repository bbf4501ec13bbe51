import { describe, expect, it } from 'vitest';
import type { UiActionResult } from '../../shared/ui-action';
import { isFalseVerification } from './verdict';

const result = (extra: Partial<UiActionResult>): UiActionResult => ({
  success: true,
  nodeBefore: null,
  nodeAfter: null,
  changed: true,
  changes: ['x'],
  ...extra,
});

describe('isFalseVerification', () => {
  it('is false when the report matches the independent read, true otherwise', () => {
    expect(isFalseVerification(result({}), true)).toBe(false);
    expect(isFalseVerification(result({ changed: false, changes: [] }), false)).toBe(false);
    // The soft failure that made an agent press 7 twice.
    expect(isFalseVerification(result({ changed: false, changes: [] }), true)).toBe(true);
    expect(isFalseVerification(result({ success: false }), true)).toBe(true);
    expect(isFalseVerification(result({}), false)).toBe(true);
  });
});
