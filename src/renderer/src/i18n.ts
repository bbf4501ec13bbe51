import { createI18n, pickLanguage, type Language } from '../../shared/i18n/i18n';

/**
 * The window's one i18next instance. It starts in the browser's language (Electron sets it from
 * the OS) and follows the status' language from then on, without a reload.
 */
export const i18n = createI18n(pickLanguage(navigator.languages));
document.documentElement.lang = i18n.language;

/** Switches every mounted component at once, and `<html lang>` with them, so screen readers pronounce it right. */
export function applyLanguage(language: Language): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}
