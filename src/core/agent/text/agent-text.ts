import i18next, { type TFunction } from 'i18next';
import { LANGUAGES, type Language } from '../../../shared/i18n/i18n';
import en from '../../../shared/i18n/locales/en/agent.json';
import ptBR from '../../../shared/i18n/locales/pt-BR/agent.json';

const instance = i18next.createInstance();
void instance.init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  ns: ['agent'],
  defaultNS: 'agent',
  resources: { en: { agent: en }, 'pt-BR': { agent: ptBR } },
  initAsync: false,
  interpolation: { escapeValue: false },
});

export type AgentText = TFunction<'agent'>;

/** The agent's own words (its system prompt, the answers it writes itself) in one language. */
export function agentText(language: Language): AgentText {
  return instance.getFixedT(language, 'agent');
}
