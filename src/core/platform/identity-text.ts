/**
 * An app's identity strings come from files and processes anyone can write (desktop files,
 * program names, a toolkit's own report): each is cut to this many characters, its control
 * characters dropped, before it is listed, saved in a workflow or matched against one.
 */
export const MAX_IDENTITY_CHARS = 255;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** The text bounded and cleaned; undefined when nothing is left. */
export function identityText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cleaned = value.replace(CONTROL, '').trim().slice(0, MAX_IDENTITY_CHARS);
  return cleaned === '' ? undefined : cleaned;
}
