import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRESET_INFO, PRESET_NAMES, type PresetName, type SettingsPatch } from '../../../shared/settings';
import { describeFailure, type Failure } from '../failure';
import { FailureText } from './failure-text';
import { presetLabel } from './presets';

interface Props {
  /** Why main cannot use the provider as configured (status.configError), e.g. a local server without a model name. */
  configError: string | undefined;
  onDone(): void;
}

/**
 * Shown until main says a model can be reached: pick a provider, give a key if it needs one.
 * What main says is still missing is shown, also after Start: the view stays when the choice is
 * not enough, and must say why.
 */
export function FirstRun({ configError, onDone }: Props) {
  const [preset, setPreset] = useState<PresetName>('openrouter');
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState('');
  const [error, setError] = useState<Failure | undefined>();
  const [saving, setSaving] = useState(false);
  // Saves so far: the config message is announced again after each, even when its words stay the same.
  const [saves, setSaves] = useState(0);
  const { t } = useTranslation();
  const keyNeeded = !PRESET_INFO[preset].local;
  const label = PRESET_INFO[preset].label;

  const submit = () => {
    if (keyNeeded && apiKey.trim() === '') {
      setError({ text: t('firstRun.needsKey', { provider: label }) });
      return;
    }
    const patch: SettingsPatch = { preset };
    if (keyNeeded) patch.apiKey = apiKey.trim();
    if (model.trim() !== '') patch.model = model.trim();
    setSaving(true);
    setError(undefined);
    window.deskpilot.updateSettings(patch).then(
      () => {
        setSaving(false);
        setSaves((count) => count + 1);
        onDone();
      },
      (reason: unknown) => {
        setSaving(false);
        setError(describeFailure(reason, t));
      },
    );
  };

  return (
    <section className="view first-run" aria-labelledby="first-run-heading">
      <h2 id="first-run-heading">{t('firstRun.heading')}</h2>
      <p>{t('firstRun.intro')}</p>
      {configError === undefined ? (
        saves === 0 ? null : (
          <p key={saves} role="alert" className="form-error">
            {t('firstRun.savedNotUsable')}
          </p>
        )
      ) : (
        <p key={saves} role="alert" className="form-error">
          {t('errors.PROVIDER_CONFIG')} {configError}
        </p>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset className="preset-choice">
          <legend>{t('firstRun.provider')}</legend>
          {PRESET_NAMES.map((name) => (
            <label key={name} className="radio">
              <input type="radio" name="preset" value={name} checked={preset === name} onChange={() => setPreset(name)} />
              {presetLabel(name, t)}
              {PRESET_INFO[name].local ? <span className="muted">{t('firstRun.noKeyNeeded')}</span> : null}
            </label>
          ))}
        </fieldset>
        {keyNeeded ? (
          <div className="field">
            <label htmlFor="first-run-key">{t('firstRun.apiKey')}</label>
            <input
              id="first-run-key"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
            />
            <p className="field-note">{t('firstRun.keyNote')}</p>
          </div>
        ) : (
          <p className="field-note">{t('firstRun.running', { provider: label })}</p>
        )}
        <div className="field">
          <label htmlFor="first-run-model">{t('firstRun.model')}</label>
          <input id="first-run-model" value={model} placeholder={t('common.providerDefault')} onChange={(event) => setModel(event.target.value)} />
        </div>
        {error === undefined ? null : (
          <div role="alert" className="form-error">
            <FailureText failure={error} />
          </div>
        )}
        <div className="form-buttons">
          <button type="submit" className="primary" disabled={saving}>
            {t('firstRun.start')}
          </button>
        </div>
      </form>
    </section>
  );
}
