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
  overridden: boolean;
  action: SecretAction;
  value: string;
  onAction(action: SecretAction): void;
  onValue(value: string): void;
}

/**
 * A credential that never comes back from main (the API key, the extra headers' values): this
 * only says whether one is stored, and can replace or remove it. New values go in a password input.
 */
export function SecretField({ id, words, hasValue, overridden, action, value, onAction, onValue }: Props) {
  if (overridden) {
    return (
      <div className="field overridden">
        <span className="label">{words.legend}</span>
        <p className="field-note">Set by an environment variable, which overrides this setting.</p>
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
            {hasValue ? words.keepCurrent : 'Cancel'}
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

export const API_KEY_WORDS: SecretWords = {
  legend: 'API key',
  isSet: 'A key is set.',
  notSet: 'No key is set.',
  removing: 'The key will be removed when you save.',
  inputLabel: 'New API key',
  add: 'Add key',
  replace: 'Replace key',
  keepCurrent: 'Keep the current key',
  remove: 'Remove key',
};

/** The headers' values may be credentials (Authorization), so only their names are shown. */
export function headerWords(names: readonly string[]): SecretWords {
  return {
    legend: 'Extra headers',
    isSet: `Set: ${names.join(', ')}. Their values are stored encrypted and not shown.`,
    notSet: 'No extra headers are set.',
    removing: 'The headers will be removed when you save.',
    inputLabel: 'New headers',
    inputHint: 'All of them, as Name: value; Name2: value. They replace the ones set now.',
    add: 'Add headers',
    replace: 'Replace headers',
    keepCurrent: 'Keep the current headers',
    remove: 'Remove headers',
  };
}
