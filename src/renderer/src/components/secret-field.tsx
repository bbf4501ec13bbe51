import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SecretAction } from './settings-form';

/** What a secret field says: the API key's words, or the extra headers'. */
export interface SecretWords {
  legend: string;
  /** The state while kept: "A key is set.", "Set: Authorization, X-Title." */
  isSet: string;
  notSet: string;
  removing: string;
  inputLabel: string;
  inputHint?: string;
  add: string;
  replace: string;
  keepCurrent: string;
  remove: string;
}

interface Props {
  id: string;
  words: SecretWords;
  hasValue: boolean;
  /** The environment variable that overrides it, if one does. */
  overriddenBy: string | undefined;
  action: SecretAction;
  value: string;
  onAction(action: SecretAction): void;
  onValue(value: string): void;
}

/**
 * A credential that never comes back from main (the API key, the extra headers' values): this
 * only says whether one is stored, and can replace or remove it. New values go in a password input.
 */
export function SecretField({ id, words, hasValue, overriddenBy, action, value, onAction, onValue }: Props) {
  const { t } = useTranslation();
  if (overriddenBy !== undefined) {
    return (
      <div className="field overridden">
        <span className="label">{words.legend}</span>
        <p className="field-note">{t('common.overriddenBy', { variable: overriddenBy })}</p>
      </div>
    );
  }
  return (
    <fieldset className="field api-key">
      <legend>{words.legend}</legend>
      <p className="key-state" id={`${id}-state`}>
        {action === 'remove' ? words.removing : hasValue ? words.isSet : words.notSet}
      </p>
      {action === 'replace' ? (
        <>
          <label htmlFor={id}>{words.inputLabel}</label>
          <input
            id={id}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={value}
            aria-describedby={`${id}-state${words.inputHint === undefined ? '' : ` ${id}-hint`}`}
            onChange={(event) => onValue(event.target.value)}
          />
          {words.inputHint === undefined ? null : (
            <p className="field-note" id={`${id}-hint`}>
              {words.inputHint}
            </p>
          )}
        </>
      ) : null}
      <div className="key-buttons">
        {action === 'keep' ? (
          <button type="button" onClick={() => onAction('replace')}>
            {hasValue ? words.replace : words.add}
          </button>
        ) : (
          <button type="button" onClick={() => onAction('keep')}>
            {hasValue ? words.keepCurrent : t('common.cancel')}
          </button>
        )}
        {hasValue && action === 'keep' ? (
          <button type="button" className="danger" onClick={() => onAction('remove')}>
            {words.remove}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** The API key's words, in the UI's language. */
export function apiKeyWords(t: TFunction): SecretWords {
  return {
    legend: t('settings.apiKey.legend'),
    isSet: t('settings.apiKey.isSet'),
    notSet: t('settings.apiKey.notSet'),
    removing: t('settings.apiKey.removing'),
    inputLabel: t('settings.apiKey.inputLabel'),
    add: t('settings.apiKey.add'),
    replace: t('settings.apiKey.replace'),
    keepCurrent: t('settings.apiKey.keepCurrent'),
    remove: t('settings.apiKey.remove'),
  };
}

/** The headers' values may be credentials (Authorization), so only their names are shown. */
export function headerWords(names: readonly string[], t: TFunction): SecretWords {
  return {
    legend: t('settings.headers.legend'),
    isSet: t('settings.headers.isSet', { names: names.join(', ') }),
    notSet: t('settings.headers.notSet'),
    removing: t('settings.headers.removing'),
    inputLabel: t('settings.headers.inputLabel'),
    inputHint: t('settings.headers.inputHint'),
    add: t('settings.headers.add'),
    replace: t('settings.headers.replace'),
    keepCurrent: t('settings.headers.keepCurrent'),
    remove: t('settings.headers.remove'),
  };
}
