import type { TFunction } from 'i18next';
import { isIpcError } from '../../shared/ipc-error';

/** What an error code means, in the UI's language; a code this window does not know reads as INTERNAL's. */
export function errorSentence(code: string, t: TFunction): string {
  return t(`errors.${code}`, { defaultValue: t('errors.INTERNAL') });
}

/**
 * Main's own words without the code in front, for refusals that are already addressed to the
 * user and name what to fix (a taken hotkey, the field of a config that is wrong).
 */
export function refusalText(reason: unknown): string {
  if (isIpcError(reason)) return reason.message;
  return reason instanceof Error ? reason.message : String(reason);
}

/** A failure for people: `text` in their words, `detail` the code and main's own message, folded away for bug reports. */
export interface Failure {
  text: string;
  detail?: string;
}

/**
 * A failed call to main (the preload's typed envelope): the code's sentence in the UI's
 * language, never the code, a channel name or a schema's wording, which stay in `detail`.
 * Anything else (an error of the window's own) is already words.
 */
export function describeFailure(reason: unknown, t: TFunction): Failure {
  const envelope = envelopeOf(reason);
  if (envelope !== undefined) return { text: errorSentence(envelope.code, t), detail: `${envelope.code}: ${envelope.message}` };
  return { text: reason instanceof Error ? reason.message : String(reason) };
}

/** The preload's envelope; one with a code this window does not know yet (a newer main) still is one, said as INTERNAL's sentence. */
function envelopeOf(reason: unknown): { code: string; message: string } | undefined {
  if (isIpcError(reason)) return reason;
  if (typeof reason !== 'object' || reason === null || !('code' in reason) || !('message' in reason)) return undefined;
  return typeof reason.code === 'string' && typeof reason.message === 'string' ? { code: reason.code, message: reason.message } : undefined;
}
