import type { SettingsDraft } from './settings-form';

interface Props {
  hasKey: boolean;
  overridden: boolean;
  action: SettingsDraft['keyAction'];
  newKey: string;
  onAction(action: SettingsDraft['keyAction']): void;
  onKey(key: string): void;
}

/** The key never comes back from main: this only says whether one is stored, and can replace or remove it. */
export function ApiKeyField({ hasKey, overridden, action, newKey, onAction, onKey }: Props) {
  if (overridden) {
    return (
      <div className="field overridden">
        <span className="label">API key</span>
        <p className="field-note">Set by an environment variable, which overrides this setting.</p>
      </div>
    );
  }
  return (
    <fieldset className="field api-key">
      <legend>API key</legend>
      <p className="key-state" id="api-key-state">
        {action === 'remove' ? 'The key will be removed when you save.' : hasKey ? 'A key is set.' : 'No key is set.'}
      </p>
      {action === 'replace' ? (
        <>
          <label htmlFor="api-key">New API key</label>
          <input id="api-key" type="password" autoComplete="off" spellCheck={false} value={newKey} aria-describedby="api-key-state" onChange={(event) => onKey(event.target.value)} />
        </>
      ) : null}
      <div className="key-buttons">
        {action === 'keep' ? (
          <button type="button" onClick={() => onAction('replace')}>
            {hasKey ? 'Replace key' : 'Add key'}
          </button>
        ) : (
          <button type="button" onClick={() => onAction('keep')}>
            {hasKey ? 'Keep the current key' : 'Cancel'}
          </button>
        )}
        {hasKey && action === 'keep' ? (
          <button type="button" className="danger" onClick={() => onAction('remove')}>
            Remove key
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
