import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../../shared/i18n/i18n';
import { APPROVAL_POLICIES, PRESET_INFO, PRESET_NAMES, VISION_MODES, type ApprovalPolicy, type VisionSetting } from '../../../shared/settings';
import { WINDOW_FIELDS, type PublicSettings, type SettingsPatch } from '../../../shared/settings-derive';
import type { WindowSection } from '../../../shared/settings-schema';
import { describeFailure, type Failure } from '../failure';
import { FailureText } from './failure-text';
import { HotkeyField } from './hotkey-field';
import { DocsSettings } from './docs-settings';
import { Field } from './field';
import { LanguageSettings } from './language-settings';
import { McpSettings } from './mcp-settings';
import { Diagnose } from './diagnose';
import { presetLabel } from './presets';
import { apiKeyWords, headerWords, SecretField } from './secret-field';
import { draftOf, patchOf, type SettingsDraft } from './settings-form';
import { controlId, SettingControl } from './setting-control';

interface Props {
  hotkeyError: string | undefined;
  /** What `system` means on this computer, for the language choice. */
  systemLanguage: Language;
  onClose(): void;
  onSaved(): void;
}

export function SettingsView({ hotkeyError, systemLanguage, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<PublicSettings | undefined>();
  const [draft, setDraft] = useState<SettingsDraft | undefined>();
  const [error, setError] = useState<Failure | undefined>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: string; text: string } | undefined>();
  const [platform, setPlatform] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    window.deskpilot.settings().then(
      (loaded) => {
        setSettings(loaded);
        setDraft(draftOf(loaded));
      },
      (reason: unknown) => {
        const failure = describeFailure(reason, t);
        setError({ ...failure, text: t('settings.couldNotLoad', { error: failure.text }) });
      },
    );
    window.deskpilot.appInfo().then(
      (info) => setPlatform(info.platform),
      () => undefined,
    );
    heading.current?.focus();
    // Once, on opening: a language switch re-renders this view and must not reload it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const change = <K extends keyof SettingsDraft>(key: K, value: SettingsDraft[K]) => {
    setDraft((current) => (current === undefined ? current : { ...current, [key]: value }));
    setSaved(false);
    setFieldError(undefined);
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
        setError(describeFailure(reason, t));
        setSaving(false);
      },
    );
  };

  /** Language and documentation controls save at once; the form's unsaved edits stay as they are. */
  const saveNow = (patch: SettingsPatch) => {
    setError(undefined);
    window.deskpilot.updateSettings(patch).then(
      (updated) => {
        setSettings(updated);
        onSaved();
      },
      (reason: unknown) => setError(describeFailure(reason, t)),
    );
  };

  const locked = (key: keyof SettingsPatch) => settings?.envOverrides.includes(key) ?? false;
  const variable = (key: keyof SettingsPatch) => settings?.envVariables[key];
  const errorFor = (id: string) => (fieldError?.field === id ? fieldError.text : undefined);
  /** The control points to its note and, when there is one, its error. */
  const noteFor = (id: string, key: keyof SettingsPatch, hasHint = false) => {
    const ids = [...(locked(key) || hasHint ? [`${id}-note`] : []), ...(errorFor(id) === undefined ? [] : [`${id}-error`])];
    return ids.length === 0 ? {} : { 'aria-describedby': ids.join(' '), ...(errorFor(id) === undefined ? {} : { 'aria-invalid': true }) };
  };

  /** The section's settings shown by their type (settings-schema.ts's `window`). */
  const controls = (section: WindowSection) =>
    draft === undefined
      ? null
      : WINDOW_FIELDS.filter((field) => field.section === section).map(({ name }) => (
          <SettingControl
            key={name}
            name={name}
            value={draft.fields[name]}
            overriddenBy={variable(name)}
            error={errorFor(controlId(name))}
            onChange={(value) => change('fields', { ...draft.fields, [name]: value })}
          />
        ));

  return (
    <section className="view settings-view" aria-labelledby="settings-heading">
      <h2 id="settings-heading" ref={heading} tabIndex={-1}>
        {t('settings.heading')}
      </h2>
      {hotkeyError === undefined ? null : <p className="banner error">{t('settings.hotkeyError', { error: hotkeyError })}</p>}
      {settings === undefined ? null : <LanguageSettings settings={settings} systemLanguage={systemLanguage} onChange={saveNow} />}
      {settings === undefined || draft === undefined ? (
        error === undefined ? (
          <p className="muted">{t('common.loading')}</p>
        ) : (
          <div role="alert" className="form-error">
            <FailureText failure={error} />
          </div>
        )
      ) : (
        <form
          className="settings-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const result = patchOf(settings, draft);
            if ('error' in result) {
              setFieldError({ field: result.field, text: t(result.error, result.values ?? {}) });
              document.getElementById(result.field)?.focus();
            } else save(result.patch);
          }}
        >
          <h3 className="settings-section">{t('settings.sectionModel')}</h3>
          <Field id="preset" label={t('settings.provider')} overriddenBy={variable('preset')} error={errorFor('preset')}>
            <select
              id="preset"
              value={draft.preset}
              disabled={locked('preset')}
              {...noteFor('preset', 'preset')}
              onChange={(event) => change('preset', event.target.value as SettingsDraft['preset'])}
            >
              {PRESET_NAMES.map((name) => (
                <option key={name} value={name}>
                  {presetLabel(name, t)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="base-url" label={t('settings.baseUrl')} overriddenBy={variable('baseUrl')} error={errorFor('base-url')} hint={t('settings.baseUrlHint')}>
            <input
              id="base-url"
              type="url"
              value={draft.baseUrl}
              readOnly={locked('baseUrl')}
              placeholder={t('common.providerDefault')}
              {...noteFor('base-url', 'baseUrl', true)}
              onChange={(event) => change('baseUrl', event.target.value)}
            />
          </Field>
          <Field id="model" label={t('settings.model')} overriddenBy={variable('model')} error={errorFor('model')} hint={t('settings.modelHint')}>
            <input
              id="model"
              value={draft.model}
              readOnly={locked('model')}
              placeholder={t('common.providerDefault')}
              {...noteFor('model', 'model', true)}
              onChange={(event) => change('model', event.target.value)}
            />
          </Field>
          <SecretField
            id="api-key"
            words={apiKeyWords(t)}
            hasValue={settings.hasApiKey}
            overriddenBy={variable('apiKey')}
            action={draft.keyAction}
            value={draft.newKey}
            onAction={(value) => change('keyAction', value)}
            onValue={(value) => change('newKey', value)}
          />
          {PRESET_INFO[draft.preset].keyUrl === undefined || locked('apiKey') ? null : (
            <button
              type="button"
              className="link-button get-key"
              onClick={() => void window.deskpilot.openExternal({ url: PRESET_INFO[draft.preset].keyUrl as string }).catch(() => undefined)}
            >
              {t('settings.getKey', { provider: PRESET_INFO[draft.preset].label })}
            </button>
          )}
          <SecretField
            id="headers"
            words={headerWords(settings.headerNames, t)}
            hasValue={settings.headerNames.length > 0}
            overriddenBy={variable('headers')}
            action={draft.headersAction}
            value={draft.newHeaders}
            onAction={(value) => change('headersAction', value)}
            onValue={(value) => change('newHeaders', value)}
          />
          <Field
            id="embedding-model"
            label={t('settings.embeddings')}
            overriddenBy={variable('embeddingModel')}
            error={errorFor('embedding-model')}
            hint={t('settings.embeddingsHint')}
          >
            <input
              id="embedding-model"
              value={draft.embeddingModel}
              readOnly={locked('embeddingModel')}
              placeholder={t('common.providerDefault')}
              {...noteFor('embedding-model', 'embeddingModel', true)}
              onChange={(event) => change('embeddingModel', event.target.value)}
            />
          </Field>
          <Field id="vision" label={t('settings.vision')} overriddenBy={variable('vision')} error={errorFor('vision')} hint={t('settings.visionHint')}>
            <select
              id="vision"
              value={draft.vision}
              disabled={locked('vision')}
              {...noteFor('vision', 'vision', true)}
              onChange={(event) => change('vision', event.target.value as VisionSetting)}
            >
              {VISION_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {t(`settings.visionMode.${mode}`)}
                </option>
              ))}
            </select>
          </Field>
          {controls('model')}
          <h3 className="settings-section">{t('settings.sectionHotkey')}</h3>
          <HotkeyField settings={settings} platform={platform} onSettings={setSettings} />
          <div className={`field checkbox-field${locked('openAtLogin') ? ' overridden' : ''}`}>
            <input
              id="open-at-login"
              type="checkbox"
              checked={draft.openAtLogin}
              disabled={locked('openAtLogin')}
              onChange={(event) => change('openAtLogin', event.target.checked)}
            />
            <label htmlFor="open-at-login">{t('settings.openAtLogin')}</label>
          </div>
          {controls('hotkey')}
          <h3 className="settings-section">{t('settings.sectionSafety')}</h3>
          <Field id="approval-policy" label={t('settings.approvals')} overriddenBy={variable('approvalPolicy')} error={errorFor('approval-policy')}>
            <select
              id="approval-policy"
              value={draft.approvalPolicy}
              disabled={locked('approvalPolicy')}
              {...noteFor('approval-policy', 'approvalPolicy')}
              onChange={(event) => change('approvalPolicy', event.target.value as ApprovalPolicy)}
            >
              {APPROVAL_POLICIES.map((policy) => (
                <option key={policy} value={policy}>
                  {t(`settings.policy.${policy}`)}
                </option>
              ))}
            </select>
          </Field>
          {controls('safety')}
          <h3 className="settings-section">{t('settings.sectionData')}</h3>
          <Field id="history-limit" label={t('settings.historyLimit')} overriddenBy={variable('historyLimit')} error={errorFor('history-limit')}>
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
          {controls('data')}
          {error === undefined ? null : (
            <div role="alert" className="form-error">
              <FailureText failure={error} />
            </div>
          )}
          <p role="status" className="form-status">
            {saved ? t('common.saved') : ''}
          </p>
          <div className="form-buttons settings-footer">
            <button type="submit" className="primary" disabled={saving}>
              {t('common.save')}
            </button>
            <button type="button" onClick={onClose}>
              {t('settings.back')}
            </button>
          </div>
        </form>
      )}
      {settings === undefined ? null : <DocsSettings settings={settings} onChange={saveNow} onSettings={setSettings} />}
      {settings === undefined ? null : <McpSettings settings={settings} onSettings={setSettings} />}
      <Diagnose />
    </section>
  );
}
