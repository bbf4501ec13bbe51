import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Composer } from './components/composer';
import { ConfirmBar } from './components/confirm-bar';
import { FirstRun } from './components/first-run';
import { Header } from './components/header';
import { MessageList } from './components/message-list';
import { RelaunchOffer } from './components/relaunch-offer';
import { PermissionHelp } from './components/permission-help';
import { SettingsView } from './components/settings-view';
import { saveableAsk } from './components/saveable-ask';
import { WorkflowsView } from './components/workflows-view';
import { useChat } from './hooks/use-chat';
import { useWorkflowRun } from './hooks/use-workflow-run';
import type { SuggestionKind } from '../../shared/suggestions';
import { applyLanguage } from './i18n';

/** The chat window: header, then one view (permission help, first run, settings or the chat). */
export function App() {
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [workflowsOpen, setWorkflowsOpen] = useState(false);
  /** The ask "Save as workflow" was pressed for, while the Workflows view saves it. */
  const [savingAsk, setSavingAsk] = useState<string | undefined>();
  // A risky step's question opens the Workflows view, wherever the user was.
  const [workflowRun, workflowDispatch] = useWorkflowRun(() => {
    setSettingsOpen(false);
    setWorkflowsOpen(true);
  });
  const chat = useChat((view) => {
    setSettingsOpen(view === 'settings');
    if (view === 'settings') setWorkflowsOpen(false);
  });
  const { status, running, stop, ask, askOrReport } = chat;
  const [confirmingClear, setConfirmingClear] = useState(false);
  const [followSignal, setFollowSignal] = useState(0);
  const [draft, setDraft] = useState<{ text: string } | undefined>();
  const { t } = useTranslation();
  const language = status?.language;

  useEffect(() => {
    if (language !== undefined) applyLanguage(language);
  }, [language]);

  useEffect(() => {
    // Esc puts the window away and stops a running ask with it: nothing should go on acting on
    // the user's app out of sight. A control that used the key itself (the clear confirmation,
    // an open select) marks it handled.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
      event.preventDefault();
      if (running) stop();
      window.deskpilot.hideWindow().catch((error: unknown) => console.warn('could not hide', error));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [running, stop]);

  // The list scrolls to the question and follows its answer again.
  const follow = useCallback(() => setFollowSignal((count) => count + 1), []);
  const send = useCallback(
    async (text: string) => {
      await ask(text);
      follow();
    },
    [ask, follow],
  );
  const retry = useCallback(
    (text: string) => {
      askOrReport(text);
      follow();
    },
    [askOrReport, follow],
  );

  /** A suggestion that needs the user's details ("Fill this form with …") goes to the input; the others are asked at once. */
  const suggest = useCallback(
    (kind: SuggestionKind) => {
      if (kind === 'fillForm' || kind === 'findItem') setDraft({ text: t(`chat.prefill.${kind}`) });
      else retry(t(`chat.suggest.${kind}`));
    },
    [retry, t],
  );

  const hotkeyError =
    status?.hotkey.registered === false ? (status.hotkey.error ?? t('app.hotkeyUnregistered', { accelerator: status.hotkey.accelerator })) : undefined;

  let view;
  if (status === undefined) {
    view = <p className="view muted">{chat.statusError === undefined ? t('app.starting') : t('app.unreachable', { error: chat.statusError })}</p>;
  } else if (status.accessibility === 'denied') {
    view = <PermissionHelp onCheckAgain={chat.refreshStatus} />;
  } else if (settingsOpen) {
    view = (
      <SettingsView hotkeyError={hotkeyError} systemLanguage={status.systemLanguage} onClose={() => setSettingsOpen(false)} onSaved={chat.refreshStatus} />
    );
  } else if (workflowsOpen) {
    view = <WorkflowsView saveAskId={savingAsk} onSaveDone={() => setSavingAsk(undefined)} run={workflowRun} dispatch={workflowDispatch} />;
  } else if (!status.configured) {
    view = <FirstRun configError={status.configError} onDone={chat.refreshStatus} />;
  } else {
    view = (
      <>
        {hotkeyError === undefined ? null : (
          <p className="banner error" role="alert">
            {t('app.hotkeyBanner', { accelerator: status.hotkey.accelerator, error: hotkeyError })}
          </p>
        )}
        {status.host === 'failed' ? (
          <div className="banner error host-failed" role="alert">
            <p>{t('app.hostStopped', { error: status.hostError ?? t('app.hostCrashed') })}</p>
            <button type="button" onClick={chat.restartHost}>
              {t('app.restart')}
            </button>
          </div>
        ) : status.host === 'running' ? null : (
          <p className="banner info">{t(`app.hostState.${status.host}`)}</p>
        )}
        {status.relaunch === undefined ? null : <RelaunchOffer offer={status.relaunch} />}
        <MessageList
          entries={chat.entries}
          running={running}
          onAnswer={chat.approve}
          onRetry={retry}
          followSignal={followSignal}
          suggestions={status.suggestions ?? []}
          onSuggest={suggest}
        />
        {running ? null : <SaveOffer askId={saveableAsk(chat.entries)} onSave={(askId) => (setSavingAsk(askId), setWorkflowsOpen(true))} />}
        <Composer running={running} onSend={send} onStop={stop} focusSignal={chat.shownCount} draft={draft} />
      </>
    );
  }

  return (
    <div className="app">
      <Header
        target={status?.target}
        settingsOpen={settingsOpen}
        workflowsOpen={workflowsOpen && !settingsOpen}
        onToggleWorkflows={() => {
          setSettingsOpen(false);
          setWorkflowsOpen((open) => !(open && !settingsOpen));
        }}
        canClear={chat.entries.length > 0}
        onToggleSettings={() => setSettingsOpen((open) => !open)}
        onClearHistory={() => setConfirmingClear(true)}
        onHide={() => void window.deskpilot.hideWindow().catch((error: unknown) => console.warn('could not hide', error))}
      />
      {confirmingClear ? (
        <ConfirmBar
          question={t('app.clearQuestion')}
          confirmLabel={t('app.clear')}
          onConfirm={() => {
            setConfirmingClear(false);
            chat.clear();
          }}
          onCancel={() => setConfirmingClear(false)}
        />
      ) : null}
      <main className="main">{view}</main>
    </div>
  );
}

/** "Save as workflow" under a completed task that acted. */
function SaveOffer({ askId, onSave }: { askId: string | undefined; onSave(askId: string): void }) {
  const { t } = useTranslation();
  if (askId === undefined) return null;
  return (
    <div className="save-offer">
      <button type="button" className="link-button" onClick={() => onSave(askId)}>
        {t('workflows.save.offer')}
      </button>
    </div>
  );
}
