import 'i18next';
import type agent from './locales/en/agent.json';
import type en from './locales/en/translation.json';

// Keys are checked by the compiler against the English catalogs, so a key used but missing fails typecheck.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en; agent: typeof agent };
  }
}
