import { useEffect, useRef, useState } from 'react';
import { APPROVAL_POLICIES, PRESET_NAMES, type ApprovalPolicy, type PublicSettings, type SettingsPatch } from '../../../shared/settings';
import { DocsSettings } from './docs-settings';
import { Field } from './field';
import { presetLabel } from './presets';
import { API_KEY_WORDS, headerWords, SecretField } from './secret-field';
import { draftOf, patchOf, type SettingsDraft } from './settings-form';

const POLICY_LABELS: Record<ApprovalPolicy, string> = {
  auto: 'Never ask',
  'confirm-risky': 'Ask before risky actions',
  'confirm-all': 'Ask before every action',
};

interface Props {
  hotkeyError: string | undefined;
  onClose(): void;
  onSaved(): void;
}

export function SettingsView({ hotkeyError, onClose, onSaved }: Props) {
  const [settings, setSettings] = useState<PublicSettings | undefined>();
  const [draft, setDraft] = useState<SettingsDraft | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    window.deskpilot.settings().then(
      (loaded) => {
        setSettings(loaded);
        setDraft(draftOf(loaded));
      },
      (reason: unknown) => setError(`Could not load the settings: ${reason instanceof Error ? reason.message : String(reason)}`),
    );
    heading.current?.focus();
  }, []);

  const change = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => {
    setDraft((current) => (current === undefined ? current : { ...current, [key]: value }));
    setSaved(false);
  };

  const save = (patch: SettingsPatch) => {
    setSaving(true);
    setError(undefined);
    window.deskpilot.updateSettings(patch).then(
      (updated) => {
        setSettings(updated);
        setDraft(draftOf(updated));
        setSaved(true);
        setSaving(false);
        onSaved();
      },
      (reason: unknown) => {
        setError(reason instanceof Error ? reason.message : String(reason));
        setSaving(false);
      },
    );
  };

  /** Documentation controls save at once; the form's unsaved edits stay as they are. */
  const saveNow = (patch: SettingsPatch) => {
    setError(undefined);
    window.deskpilot.updateSettings(patch).then(setSettings, (reason: unknown) => setError(reason instanceof Error ? reason.message : String(reason)));
  };

  const locked = (key: keyof SettingsPatch) => settings?.envOverrides.includes(key) ?? false;
  const noteFor = (id: string, key: keyof SettingsPatch, hasHint = false) => (locked(key) || hasHint ? { 'aria-describedby': `${id}-note` } : {});

  return (
    <section className="view settings-view" aria-labelledby="settings-heading">
      <h2 id="settings-heading" ref={heading} tabIndex={-1}>
        Settings
      </h2>
      {hotkeyError === undefined ? null : <p className="banner error">The hotkey is not registered: {hotkeyError}</p>}
      {settings === undefined || draft === undefined ? (
        error === undefined ? (
          <p className="muted">Loading…</p>
        ) : (
          <p role="alert" className="form-error">
            {error}
          </p>
        )
      ) : (
        <form
          className="settings-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const result = patchOf(settings, draft);
            if ('error' in result) setError(result.error);
            else save(result.patch);
          }}
        >
          <Field id="preset" label="Provider" overridden={locked('preset')}>
            <select
              id="preset"
              value={draft.preset}
              disabled={locked('preset')}
              {...noteFor('preset', 'preset')}
              onChange={(event) => change('preset', event.target.value as SettingsDraft['preset'])}
            >
              {PRESET_NAMES.map((name) => (
                <option key={name} value={name}>
                  {presetLabel(name)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="base-url" label="Base URL" overridden={locked('baseUrl')} hint="Empty uses the provider's own URL.">
            <input
              id="base-url"
              type="url"
              value={draft.baseUrl}
              readOnly={locked('baseUrl')}
              placeholder="Provider default"
              {...noteFor('base-url', 'baseUrl', true)}
              onChange={(event) => change('baseUrl', event.target.value)}
            />
          </Field>
          <Field id="model" label="Model" overridden={locked('model')} hint="Empty uses the provider's default model.">
            <input
              id="model"
              value={draft.model}
              readOnly={locked('model')}
              placeholder="Provider default"
              {...noteFor('model', 'model', true)}
              onChange={(event) => change('model', event.target.value)}
            />
          </Field>
          <SecretField
            id="api-key"
            words={API_KEY_WORDS}
            hasValue={settings.hasApiKey}
            overridden={locked('apiKey')}
            action={draft.keyAction}
            value={draft.newKey}
            onAction={(value) => change('keyAction', value)}
            onValue={(value) => change('newKey', value)}
          />
          <SecretField
            id="headers"
            words={headerWords(settings.headerNames)}
            hasValue={settings.headerNames.length > 0}
            overridden={locked('headers')}
            action={draft.headersAction}
            value={draft.newHeaders}
            onAction={(value) => change('headersAction', value)}
            onValue={(value) => change('newHeaders', value)}
          />
          <Field id="hotkey" label="Hotkey" overridden={locked('hotkey')} hint="An Electron accelerator, such as Alt+Space.">
            <input
              id="hotkey"
              value={draft.hotkey}
              readOnly={locked('hotkey')}
              {...noteFor('hotkey', 'hotkey', true)}
              onChange={(event) => change('hotkey', event.target.value)}
            />
          </Field>
          <Field id="approval-policy" label="Approvals" overridden={locked('approvalPolicy')}>
            <select
              id="approval-policy"
              value={draft.approvalPolicy}
              disabled={locked('approvalPolicy')}
              {...noteFor('approval-policy', 'approvalPolicy')}
              onChange={(event) => change('approvalPolicy', event.target.value as ApprovalPolicy)}
            >
              {APPROVAL_POLICIES.map((policy) => (
                <option key={policy} value={policy}>
                  {POLICY_LABELS[policy]}
                </option>
              ))}
            </select>
          </Field>
          <div className={`field checkbox-field${locked('openAtLogin') ? ' overridden' : ''}`}>
            <input
              id="open-at-login"
              type="checkbox"
              checked={draft.openAtLogin}
              disabled={locked('openAtLogin')}
              onChange={(event) => change('openAtLogin', event.target.checked)}
            />
            <label htmlFor="open-at-login">Open at login</label>
          </div>
          <Field id="history-limit" label="Chat entries kept" overridden={locked('historyLimit')}>
            <input
              id="history-limit"
              type="number"
              min={0}
              max={10000}
              step={1}
              value={draft.historyLimit}
              readOnly={locked('historyLimit')}
              {...noteFor('history-limit', 'historyLimit')}
              onChange={(event) => change('historyLimit', event.target.value)}
            />
          </Field>
          <Field
            id="embedding-model"
            label="Embeddings"
            overridden={locked('embeddingModel')}
            hint="The embedding model documentation search uses. Empty uses the provider's own: OpenAI, Ollama and Gemini have one."
          >
            <input
              id="embedding-model"
              value={draft.embeddingModel}
              readOnly={locked('embeddingModel')}
              placeholder="Provider default"
              {...noteFor('embedding-model', 'embeddingModel', true)}
              onChange={(event) => change('embeddingModel', event.target.value)}
            />
          </Field>
          {error === undefined ? null : (
            <p role="alert" className="form-error">
              {error}
            </p>
          )}
          <p role="status" className="form-status">
            {saved ? 'Saved.' : ''}
          </p>
          <div className="form-buttons">
            <button type="submit" className="primary" disabled={saving}>
              Save
            </button>
            <button type="button" onClick={onClose}>
              Back to chat
            </button>
          </div>
        </form>
      )}
      {settings === undefined ? null : <DocsSettings settings={settings} onChange={saveNow} onSettings={setSettings} />}
    </section>
  );
}
