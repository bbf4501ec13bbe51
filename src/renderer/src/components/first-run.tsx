import { useState } from 'react';
import { PRESET_NAMES, type PresetName, type SettingsPatch } from '../../../shared/settings';
import { needsApiKey, PRESET_LABELS } from './presets';

/** Shown until main says a model can be reached: pick a provider, give a key if it needs one. */
export function FirstRun({ onDone }: { onDone(): void }) {
  const [preset, setPreset] = useState<PresetName>('openrouter');
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const keyNeeded = needsApiKey(preset);

  const submit = () => {
    if (keyNeeded && apiKey.trim() === '') {
      setError(`${PRESET_LABELS[preset]} needs an API key.`);
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
              {PRESET_LABELS[name]}
              {needsApiKey(name) ? null : <span className="muted"> · no key needed</span>}
            </label>
          ))}
        </fieldset>
        {keyNeeded ? (
          <div className="field">
            <label htmlFor="first-run-key">API key</label>
            <input id="first-run-key" type="password" autoComplete="off" spellCheck={false} value={apiKey} onChange={(event) => setApiKey(event.target.value)} />
            <p className="field-note">Stored encrypted on this computer; it never comes back to this window.</p>
          </div>
        ) : (
          <p className="field-note">Make sure {PRESET_LABELS[preset].replace(' (on this computer)', '')} is running with a model loaded.</p>
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
