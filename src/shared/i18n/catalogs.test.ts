import { describe, expect, it } from 'vitest';
import { LANGUAGES, createI18n, languageFromEnv, matchLanguage, pickLanguage } from './i18n';
import { CATALOGS, PLURAL, flatten, type Namespace } from './catalog-keys';
import { ERROR_CODES } from '../errors';

const load = (language: string, namespace: Namespace) => CATALOGS[language]?.[namespace] ?? {};

const variables = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1] ?? '').sort();

describe('the catalogs', () => {
  // `tools` is translation only: English lives with each tool (see tool-text.test.ts).
  for (const namespace of ['translation', 'agent'] as const) {
    it(`${namespace}: every language has exactly the English keys, with the same {{variables}}`, () => {
      const english = new Map(flatten(load('en', namespace)));
      for (const language of LANGUAGES) {
        const other = new Map(flatten(load(language, namespace)));
        expect([...other.keys()].sort(), language).toEqual([...english.keys()].sort());
        for (const [key, text] of english) expect(variables(other.get(key) ?? ''), `${language} ${key}`).toEqual(variables(text));
        for (const [key, text] of other) expect(text.trim(), `${language} ${key} is empty`).not.toBe('');
      }
    });
  }

  it('has a sentence for every error code, so no code reads as INTERNAL in the window', () => {
    const keys = new Set(flatten(load('en', 'translation')).map(([key]) => key));
    expect(ERROR_CODES.filter((code) => !keys.has(`errors.${code}`))).toEqual([]);
  });

  it('ships every plural form Brazilian Portuguese needs (one, many, other) wherever a key has plurals', () => {
    const categories = new Intl.PluralRules('pt-BR').resolvedOptions().pluralCategories;
    for (const namespace of ['translation', 'agent'] as const) {
      const keys = new Set(flatten(load('pt-BR', namespace)).map(([key]) => key));
      const bases = new Set([...keys].filter((key) => PLURAL.test(key)).map((key) => key.replace(PLURAL, '')));
      for (const base of bases) for (const category of categories) expect(keys.has(`${base}_${category}`), `${namespace} ${base}_${category}`).toBe(true);
    }
  });

  it('picks the right form for 0, 1, 2 and 1,000,000 in each language, numbers written as the language writes them', () => {
    const forms = (language: 'en' | 'pt-BR') => [0, 1, 2, 1_000_000].map((count) => createI18n(language).t('docs.files', { count }));
    expect(forms('pt-BR')).toEqual(['0 arquivo', '1 arquivo', '2 arquivos', '1.000.000 de arquivos']);
    expect(forms('en')).toEqual(['0 files', '1 file', '2 files', '1,000,000 files']);
  });
});

describe('choosing the language', () => {
  it('maps OS and locale tags to a shipped language; any Portuguese is Brazilian Portuguese', () => {
    expect(['pt-BR', 'pt', 'pt-PT', 'pt_BR.UTF-8', 'en-US', 'en_GB.UTF-8', 'fr-FR'].map(matchLanguage)).toEqual([
      'pt-BR',
      'pt-BR',
      'pt-BR',
      'pt-BR',
      'en',
      'en',
      undefined,
    ]);
    expect(pickLanguage(['fr-FR', 'pt-PT', 'en'])).toBe('pt-BR');
    expect(pickLanguage(['de-DE'])).toBe('en');
  });

  it('reads the terminal’s locale the way gettext does', () => {
    expect(languageFromEnv({ LANG: 'pt_BR.UTF-8' })).toBe('pt-BR');
    expect(languageFromEnv({ LANG: 'pt_BR.UTF-8', LC_MESSAGES: 'en_US.UTF-8' })).toBe('en');
    expect(languageFromEnv({ LANG: 'en_US.UTF-8', LC_ALL: 'pt_PT.UTF-8' })).toBe('pt-BR');
    expect(languageFromEnv({ LANG: 'C.UTF-8', LANGUAGE: 'pt_BR' })).toBe('en');
    expect(languageFromEnv({ LANG: 'en_US.UTF-8', LANGUAGE: 'pt_BR:en' })).toBe('pt-BR');
    expect(languageFromEnv({})).toBe('en');
  });

  it('falls back to English for a key a catalog lacks', () => {
    const i18n = createI18n('pt-BR');
    expect(i18n.t('common.save')).toBe('Salvar');
    expect(i18n.t('no.such.key' as never)).toBe('no.such.key');
  });
});
