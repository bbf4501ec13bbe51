import i18next, { type i18n } from 'i18next';
import { CATALOGS } from './catalog-keys';

/** The languages Deskpilot ships, each with a full catalog. English is the fallback for any key. */
export const LANGUAGES = ['en', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What Settings offers: the system's language, or one fixed. */
export const LANGUAGE_CHOICES = ['system', ...LANGUAGES] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/** The answer language: the question's own, or one fixed apart from the UI's. */
export const ANSWER_LANGUAGE_CHOICES = ['auto', ...LANGUAGES] as const;
export type AnswerLanguageChoice = (typeof ANSWER_LANGUAGE_CHOICES)[number];

/** Each language in its own words: a reader who cannot read the current UI still finds theirs. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', 'pt-BR': 'Português (Brasil)' };

/** The UI's catalogs (the agent's words load apart, in the core). */
const RESOURCES = Object.fromEntries(LANGUAGES.map((language) => [language, { translation: CATALOGS[language]?.translation ?? {} }]));

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * A BCP 47 tag or a POSIX locale (`pt_BR.UTF-8`, `pt-PT`, `en-US`) → the shipped language it
 * falls to. Every Portuguese falls to Brazilian Portuguese, the one catalog there is.
 */
export function matchLanguage(tag: string): Language | undefined {
  const base = tag.split(/[.@]/)[0]?.replace('_', '-').toLowerCase() ?? '';
  if (base === 'pt' || base.startsWith('pt-')) return 'pt-BR';
  if (base === 'en' || base.startsWith('en-')) return 'en';
  return undefined;
}

/** The first of the user's preferred languages that Deskpilot has; English when none is. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const language = matchLanguage(tag);
    if (language !== undefined) return language;
  }
  return 'en';
}

/**
 * The language a terminal program uses, the way gettext reads it: LC_ALL, then LC_MESSAGES,
 * then LANG decide the locale; a C or POSIX locale means English. LANGUAGE, a priority list,
 * is consulted only when the locale is not C.
 */
export function languageFromEnv(env: Readonly<Record<string, string | undefined>>): Language {
  const locale = [env['LC_ALL'], env['LC_MESSAGES'], env['LANG']].find((value) => value !== undefined && value !== '') ?? '';
  if (locale === '' || locale === 'C' || locale === 'POSIX' || locale.startsWith('C.')) return 'en';
  const list = (env['LANGUAGE'] ?? '').split(':').filter((tag) => tag !== '');
  return pickLanguage([...list, locale]);
}

/** The setting resolved: `system` becomes the OS's choice. */
export function resolveLanguage(choice: LanguageChoice, systemLanguages: readonly string[]): Language {
  return choice === 'system' ? pickLanguage(systemLanguages) : choice;
}

/**
 * A ready i18next instance of its own (never the global one: main, the host and tests may each
 * hold several). Initialised synchronously, since every catalog is bundled.
 */
export function createI18n(language: Language): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: { pt: ['pt-BR', 'en'], default: ['en'] },
    supportedLngs: [...LANGUAGES, 'pt'],
    resources: RESOURCES,
    initAsync: false,
    // React escapes what it renders, and the other callers print plain text.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

/** What code that only says things needs: the current language's `t`. */
export type Translator = Pick<i18n, 't'>;
