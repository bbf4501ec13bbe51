import enAgent from './locales/en/agent.json';
import en from './locales/en/translation.json';
import ptBRAgent from './locales/pt-BR/agent.json';
import ptBR from './locales/pt-BR/translation.json';

export type Catalog = { [key: string]: string | Catalog };
export type Namespace = 'translation' | 'agent';

/** Every catalog that must match English key for key, by language and namespace (tools.json is checked against the tools instead). */
export const CATALOGS: Readonly<Record<string, Readonly<Record<Namespace, Catalog>>>> = {
  en: { translation: en, agent: enAgent },
  'pt-BR': { translation: ptBR, agent: ptBRAgent },
};

/** The suffixes i18next adds for plural forms (`files_one`). */
export const PLURAL = /_(zero|one|two|few|many|other)$/;

/** `{a: {b: 'x'}}` → [['a.b', 'x']]. */
export function flatten(catalog: Catalog, prefix = ''): [string, string][] {
  return Object.entries(catalog).flatMap(([key, value]) => (typeof value === 'string' ? [[prefix + key, value]] : flatten(value, `${prefix}${key}.`)));
}
