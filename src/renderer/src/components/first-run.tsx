import { useState } from 'react';
import { PRESET_INFO, PRESET_NAMES, type PresetName, type SettingsPatch } from '../../../shared/settings';
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
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  // Saves so far: the config message is announced again after each, even when its words stay the same.
  const [saves, setSaves] = useState(0);
  const keyNeeded = !PRESET_INFO[preset].local;
  const label = PRESET_INFO[preset].label;

  const submit = () => {
    if (keyNeeded && apiKey.trim() === '') {
      setError(`${label} needs an API key.`);
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
        setError(reason instanceof Error ? reason.message : String(reason));
      },
    );
  };

  return (
    <section className="view first-run" aria-labelledby="first-run-heading">
      <h2 id="first-run-heading">Welcome to Deskpilot</h2>
      <p>Choose the model provider Deskpilot talks to. You can change it later in Settings.</p>
      {configError === undefined ? (
        saves === 0 ? null : (
          <p key={saves} role="alert" className="form-error">
            Saved, but Deskpilot cannot use this provider yet. Check that it is running, or set the base URL and model in Settings.
          </p>
        )
      ) : (
        <p key={saves} role="alert" className="form-error">
          {configError}
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
          <legend>Provider</legend>
          {PRESET_NAMES.map((name) => (
            <label key={name} className="radio">
              <input type="radio" name="preset" value={name} checked={preset === name} onChange={() => setPreset(name)} />
              {presetLabel(name)}
              {PRESET_INFO[name].local ? <span className="muted"> · no key needed</span> : null}
            </label>
          ))}
        </fieldset>
        {keyNeeded ? (
          <div className="field">
            <label htmlFor="first-run-key">API key</label>
            <input
              id="first-run-key"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
            />
            <p className="field-note">Stored encrypted on this computer; it never comes back to this window.</p>
          </div>
        ) : (
          <p className="field-note">Make sure {label} is running with a model loaded.</p>
        )}
        <div className="field">
          <label htmlFor="first-run-model">Model (optional)</label>
          <input id="first-run-model" value={model} placeholder="Provider default" onChange={(event) => setModel(event.target.value)} />
        </div>
        {error === undefined ? null : (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <div className="form-buttons">
          <button type="submit" className="primary" disabled={saving}>
            Start
          </button>
        </div>
      </form>
    </section>
  );
}
