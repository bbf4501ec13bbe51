import type { TFunction } from 'i18next';

/** How the preload hands a typed error across the context bridge, which keeps only the message: `CODE: message`. */
const CODE_PREFIX = /^([A-Z][A-Z_]+): /;

/** What an error code means, in the UI's language; a code this window does not know reads as INTERNAL's. */
export function errorSentence(code: string, t: TFunction): string {
  return t(`errors.${code}`, { defaultValue: t('errors.INTERNAL') });
}

/**
 * A failed call to main in words: the code's sentence in the UI's language, then the code and
 * main's own message (scripts and bug reports rely on those, so they stay as they are).
 */
export function failureText(reason: unknown, t: TFunction): string {
  const message = reason instanceof Error ? reason.message : String(reason);
  const code = CODE_PREFIX.exec(message)?.[1];
  if (code === undefined) return message;
  const sentence: string = t(`errors.${code}`, { defaultValue: '' });
  return sentence === '' ? message : `${sentence} (${message})`;
}
