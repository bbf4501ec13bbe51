import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRESET_INFO, PRESET_NAMES, type PresetName } from '../../../shared/settings';
import type { SettingsPatch } from '../../../shared/settings-derive';
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
  const info = PRESET_INFO[preset];
  const keyNeeded = !info.local;
  const label = info.label;
  const [modelError, setModelError] = useState(false);
  const [storedModel, setStoredModel] = useState('');

  // Starts from what was saved before (a choice that did not work yet), not from the first preset.
  useEffect(() => {
    window.deskpilot.settings().then(
      (stored) => {
        setPreset(stored.preset);
        setModel(stored.model);
        setStoredModel(stored.model);
      },
      () => undefined,
    );
  }, []);

  const submit = () => {
    if (keyNeeded && apiKey.trim() === '') {
      setError({ text: t('firstRun.needsKey', { provider: label }) });
      return;
    }
    if (info.modelRequired === true && model.trim() === '') {
      setModelError(true);
      document.getElementById('first-run-model')?.focus();
      return;
    }
    const patch: SettingsPatch = { preset };
    if (keyNeeded) patch.apiKey = apiKey.trim();
    if (model.trim() !== '' && model.trim() !== storedModel) patch.model = model.trim();
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
              <input
                type="radio"
                name="preset"
                value={name}
                checked={preset === name}
                onChange={() => {
                  setPreset(name);
                  setModelError(false);
                }}
              />
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
            {info.keyUrl === undefined ? null : (
              <button
                type="button"
                className="link-button"
                onClick={() => void window.deskpilot.openExternal({ url: info.keyUrl as string }).catch(() => undefined)}
              >
                {t('settings.getKey', { provider: label })}
              </button>
            )}
          </div>
        ) : (
          <p className="field-note">{t('firstRun.running', { provider: label })}</p>
        )}
        <div className="field">
          {/* The label follows the provider: LM Studio has no default model, so there it is required. */}
          <label htmlFor="first-run-model">{info.modelRequired === true ? t('settings.modelRequired') : t('firstRun.model')}</label>
          <input
            id="first-run-model"
            value={model}
            required={info.modelRequired === true}
            aria-invalid={modelError}
            aria-describedby={modelError ? 'first-run-model-error' : undefined}
            placeholder={info.modelRequired === true ? '' : t('common.providerDefault')}
            onChange={(event) => {
              setModel(event.target.value);
              setModelError(false);
            }}
          />
          {modelError ? (
            <p className="field-error" id="first-run-model-error" role="alert">
              {t('settings.modelNeeded', { provider: label })}
            </p>
          ) : null}
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
