import type { UiActionResult } from '../shared/ui-action';

/** `act`'s exit codes, as `--help` and docs/cli.md state them. */
export const ACT_EXIT = {
  verified: 0,
  failed: 1,
  /** 2 is every command's: bad input or an error before anything ran. */
  unchanged: 3,
} as const;

/**
 * 0 only when the action ran and a change was seen. A soft failure (it ran, nothing observable
 * changed) is not success for a script: `act … && next-step` must not go on as if it worked.
 * Scroll is the exception the contract makes: the scrolled node itself often does not change.
 */
export function actExitCode(request: { action: string }, result: UiActionResult): number {
  if (!result.success) return ACT_EXIT.failed;
  return result.changed || request.action === 'scroll' ? ACT_EXIT.verified : ACT_EXIT.unchanged;
}
