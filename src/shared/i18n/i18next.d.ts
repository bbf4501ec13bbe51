import 'i18next';
import type en from './locales/en.json';

// Keys are checked by the compiler against the English catalog, so a key used but missing fails typecheck.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
