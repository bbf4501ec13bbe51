import type { TFunction } from 'i18next';

/** How the preload hands a typed error across the context bridge, which keeps only the message: `CODE: message`. */
const CODE_PREFIX = /^([A-Z][A-Z_]+): /;

/** What an error code means, in the UI's language; a code this window does not know reads as INTERNAL's. */
export function errorSentence(code: string, t: TFunction): string {
  return t(`errors.${code}`, { defaultValue: t('errors.INTERNAL') });
}

/**
 * Main's own words without the code in front, for refusals that are already addressed to the
 * user and name what to fix (a taken hotkey, the field of a config that is wrong).
 */
export function refusalText(reason: unknown): string {
  const message = reason instanceof Error ? reason.message : String(reason);
  return message.replace(CODE_PREFIX, '');
}

/** A failure for people: `text` in their words, `detail` the code and main's own message, folded away for bug reports. */
export interface Failure {
  text: string;
  detail?: string;
}

/**
 * A failed call to main: the code's sentence in the UI's language, never the code, a channel
 * name or a schema's wording, which stay in `detail`. A message with no code is already words.
 */
export function describeFailure(reason: unknown, t: TFunction): Failure {
  const message = reason instanceof Error ? reason.message : String(reason);
  const code = CODE_PREFIX.exec(message)?.[1];
  return code === undefined ? { text: message } : { text: errorSentence(code, t), detail: message };
}
