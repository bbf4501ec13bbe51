import { useTranslation } from 'react-i18next';
import type { TargetApp } from '../../../shared/ipc';
import { Icon } from './icons';

interface Props {
  target: TargetApp | null | undefined;
  settingsOpen: boolean;
  workflowsOpen: boolean;
  onToggleWorkflows(): void;
  /** False with nothing in the chat: the trash button goes away rather than do nothing. */
  canClear: boolean;
  onToggleSettings(): void;
  onClearHistory(): void;
  onHide(): void;
}

/** The title bar: the window is dragged by it, so its buttons opt out of the drag region. */
export function Header({ target, settingsOpen, workflowsOpen, onToggleWorkflows, canClear, onToggleSettings, onClearHistory, onHide }: Props) {
  const { t } = useTranslation();
  return (
    <header className="header">
      <div className="header-target" title={target == null ? undefined : `${target.app} — ${target.title}`}>
        {target == null ? (
          <span className="muted">{t('header.noApp')}</span>
        ) : (
          <>
            <span className="target-app">{target.app}</span>
            {target.title === '' ? null : <span className="target-title">{target.title}</span>}
          </>
        )}
      </div>
      <div className="header-buttons">
        <button
          type="button"
          className="icon-button"
          aria-label={settingsOpen ? t('header.closeSettings') : t('header.settings')}
          aria-pressed={settingsOpen}
          title={t('header.settings')}
          onClick={onToggleSettings}
        >
          <Icon name="settings" />
        </button>
        {canClear ? (
          <button type="button" className="icon-button" aria-label={t('header.clearHistory')} title={t('header.clearHistory')} onClick={onClearHistory}>
            <Icon name="trash" />
          </button>
        ) : null}
        <button
          type="button"
          className="icon-button"
          aria-label={workflowsOpen ? t('workflows.close') : t('workflows.open')}
          aria-pressed={workflowsOpen}
          title={t('workflows.open')}
          onClick={onToggleWorkflows}
        >
          <Icon name="workflows" />
        </button>
        <button type="button" className="icon-button" aria-label={t('header.hide')} title={t('header.hideTitle')} onClick={onHide}>
          <Icon name="hide" />
        </button>
      </div>
    </header>
  );
}
