import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocsStatus } from '../../../shared/ipc';
import type { PublicSettings, SettingsPatch } from '../../../shared/settings-derive';
import { describeFailure, type Failure } from '../failure';
import { i18n } from '../i18n';
import { describeDocsStatus } from './docs-status';
import { FailureText } from './failure-text';

interface Props {
  settings: PublicSettings;
  /** Saves a change at once (these controls have no Save button) and hands back the stored settings. */
  onChange(patch: SettingsPatch): void;
  onSettings(settings: PublicSettings): void;
}

const SOURCES = [
  { key: 'docsAppHelp', label: 'docs.appHelp' },
  { key: 'docsManPages', label: 'docs.manPages' },
  { key: 'docsUserFolders', label: 'docs.userFolders' },
] as const;

/**
 * Documentation search: where it looks, and the index's state. Changes apply at once; the
 * host indexes in the background and reports progress here.
 */
export function DocsSettings({ settings, onChange, onSettings }: Props) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<DocsStatus | undefined>();
  const [problem, setProblem] = useState<Failure | undefined>();
  // The module's i18n, not the hook's t: the subscription below is made once.
  const fail = (reason: unknown) => setProblem(describeFailure(reason, i18n.t));

  useEffect(() => {
    let live = true;
    window.deskpilot.docsStatus().then((loaded) => live && setStatus(loaded), fail);
    const unsubscribe = window.deskpilot.onEvent((event) => {
      if (event.type === 'docs') setStatus(event.status);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, []);

  const locked = (key: keyof SettingsPatch) => settings.envOverrides.includes(key);

  return (
    <section className="docs-settings" aria-labelledby="docs-heading">
      <h3 id="docs-heading">{t('docs.heading')}</h3>
      <p className="field-note">{t('docs.intro')}</p>
      <fieldset className="field">
        <legend>{t('docs.searchIn')}</legend>
        {SOURCES.map(({ key, label }) => (
          <div className="field checkbox-field" key={key}>
            <input id={key} type="checkbox" checked={settings[key]} disabled={locked(key)} onChange={(event) => onChange({ [key]: event.target.checked })} />
            <label htmlFor={key}>{t(label)}</label>
          </div>
        ))}
      </fieldset>
      <div className="field">
        <span className="label" id="docs-folders-label">
          {t('docs.folders')}
        </span>
        {settings.docsFolders.length === 0 ? (
          <p className="field-note">{t('docs.noFolders')}</p>
        ) : (
          <ul className="docs-folders" aria-labelledby="docs-folders-label">
            {settings.docsFolders.map((folder) => (
              <li key={folder}>
                <span className="docs-folder" title={folder}>
                  {folder}
                </span>
                <button
                  type="button"
                  aria-label={t('docs.removeFolder', { folder })}
                  onClick={() => onChange({ docsFolders: settings.docsFolders.filter((other) => other !== folder) })}
                >
                  {t('common.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="form-buttons">
          <button type="button" onClick={() => void window.deskpilot.addDocsFolder().then(onSettings, fail)}>
            {t('docs.addFolder')}
          </button>
          <button type="button" disabled={status?.indexing != null} onClick={() => void window.deskpilot.rebuildDocs().catch(fail)}>
            {t('docs.rebuild')}
          </button>
        </div>
      </div>
      <div role="status" aria-live="polite" className="docs-status">
        {status === undefined ? null : describeDocsStatus(status, i18n).map((line) => <p key={line}>{line}</p>)}
      </div>
      {problem === undefined ? null : (
        <div role="alert" className="form-error">
          <FailureText failure={problem} />
        </div>
      )}
    </section>
  );
}
