import { useCallback, useEffect, useState } from 'react';
import { Composer } from './components/composer';
import { ConfirmBar } from './components/confirm-bar';
import { FirstRun } from './components/first-run';
import { Header } from './components/header';
import { MessageList } from './components/message-list';
import { PermissionHelp } from './components/permission-help';
import { SettingsView } from './components/settings-view';
import { useChat } from './hooks/use-chat';

/** The chat window: header, then one view (permission help, first run, settings or the chat). */
export function App() {
  const [settingsOpen, setSettingsOpen] = useState(false);
  const chat = useChat((view) => setSettingsOpen(view === 'settings'));
  const { status, running, stop, ask, askOrReport } = chat;
  const [confirmingClear, setConfirmingClear] = useState(false);
  const [followSignal, setFollowSignal] = useState(0);

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

  const hotkeyError = status?.hotkey.registered === false ? (status.hotkey.error ?? `${status.hotkey.accelerator} could not be registered.`) : undefined;

  let view;
  if (status === undefined) {
    view = <p className="view muted">{chat.statusError === undefined ? 'Starting…' : `Could not reach Deskpilot: ${chat.statusError}`}</p>;
  } else if (status.accessibility === 'denied') {
    view = <PermissionHelp onCheckAgain={chat.refreshStatus} />;
  } else if (settingsOpen) {
    view = <SettingsView hotkeyError={hotkeyError} onClose={() => setSettingsOpen(false)} onSaved={chat.refreshStatus} />;
  } else if (!status.configured) {
    view = <FirstRun configError={status.configError} onDone={chat.refreshStatus} />;
  } else {
    view = (
      <>
        {hotkeyError === undefined ? null : (
          <p className="banner error" role="alert">
            The hotkey {status.hotkey.accelerator} is not registered: {hotkeyError} Change it in Settings.
          </p>
        )}
        {status.host === 'failed' ? (
          <div className="banner error host-failed" role="alert">
            <p>The automation host stopped: {status.hostError ?? 'it crashed several times in a row.'}</p>
            <button type="button" onClick={chat.restartHost}>
              Restart
            </button>
          </div>
        ) : status.host === 'running' ? null : (
          <p className="banner info">The automation host is {status.host}…</p>
        )}
        <MessageList entries={chat.entries} running={running} onAnswer={chat.approve} onRetry={retry} followSignal={followSignal} />
        <Composer running={running} onSend={send} onStop={stop} focusSignal={chat.shownCount} />
      </>
    );
  }

  return (
    <div className="app">
      <Header
        target={status?.target}
        settingsOpen={settingsOpen}
        onToggleSettings={() => setSettingsOpen((open) => !open)}
        onClearHistory={() => setConfirmingClear(true)}
        onHide={() => void window.deskpilot.hideWindow().catch((error: unknown) => console.warn('could not hide', error))}
      />
      {confirmingClear ? (
        <ConfirmBar
          question="Clear the whole chat history?"
          confirmLabel="Clear"
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
