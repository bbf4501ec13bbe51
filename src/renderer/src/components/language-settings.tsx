import { useTranslation } from 'react-i18next';
import {
  ANSWER_LANGUAGE_CHOICES,
  LANGUAGE_CHOICES,
  LANGUAGE_NAMES,
  type AnswerLanguageChoice,
  type Language,
  type LanguageChoice,
} from '../../../shared/i18n/i18n';
import type { PublicSettings, SettingsPatch } from '../../../shared/settings-derive';
import { Field } from './field';

interface Props {
  settings: PublicSettings;
  systemLanguage: Language;
  /** Saves at once: the window switches language as soon as one is picked. */
  onChange(patch: SettingsPatch): void;
}

/** The UI's language and the answers'. Each language is named in itself, so a user lost in the other one still finds theirs. */
export function LanguageSettings({ settings, systemLanguage, onChange }: Props) {
  const { t } = useTranslation();
  const name = (choice: LanguageChoice) =>
    choice === 'system' ? t('settings.languageSystem', { language: LANGUAGE_NAMES[systemLanguage] }) : LANGUAGE_NAMES[choice];
  return (
    <div className="language-settings">
      <Field id="language" label={t('settings.language')}>
        <select id="language" value={settings.language} onChange={(event) => onChange({ language: event.target.value as LanguageChoice })}>
          {LANGUAGE_CHOICES.map((choice) => (
            <option key={choice} value={choice} lang={choice === 'system' ? undefined : choice}>
              {name(choice)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="answer-language" label={t('settings.answerLanguage')} hint={t('settings.answerLanguageHint')}>
        <select
          id="answer-language"
          value={settings.answerLanguage}
          aria-describedby="answer-language-note"
          onChange={(event) => onChange({ answerLanguage: event.target.value as AnswerLanguageChoice })}
        >
          {ANSWER_LANGUAGE_CHOICES.map((choice) => (
            <option key={choice} value={choice} lang={choice === 'auto' ? undefined : choice}>
              {choice === 'auto' ? t('settings.answerAuto') : LANGUAGE_NAMES[choice]}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
