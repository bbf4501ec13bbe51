import type { UiActionResult } from '../../shared/ui-action';

/**
 * Whether a result told the truth, against an independent read of the effect (another
 * client, the app's saved file): a false verification says "changed" (or "closed") when
 * nothing happened, or "no change" / a failure when the effect is there. Benchmarks count these
 * (bench:apps prints them as verify_false).
 */
export function isFalseVerification(result: UiActionResult, effectHappened: boolean): boolean {
  return (result.success && result.changed) !== effectHappened;
}
