import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { AppEvent, AppStatus } from '../../../shared/ipc';
import type { ApprovalDecision } from '../../../shared/settings';
import { describeFailure } from '../failure';
import { i18n } from '../i18n';
import { chatReducer, initialChatState, isRunning, type ChatAction } from './chat-state';

/** The catalog keys of the requests that can fail; each takes the error's message. */
type FailureKey = 'chat.couldNotLoadHistory' | 'chat.couldNotAsk' | 'chat.couldNotStop' | 'chat.couldNotAnswer' | 'chat.couldNotClear' | 'chat.couldNotRestart';

function messageOf(error: unknown): string {
  return describeFailure(error, i18n.t).text;
}

/** A failed request as a notice, in the language of the moment it failed (notices are kept as text), its code folded in `detail`. */
function failureNotice(what: FailureKey, error: unknown): ChatAction {
  const { text, detail } = describeFailure(error, i18n.t);
  return { type: 'notice', level: 'error', text: i18n.t(what, { error: text }), ...(detail === undefined ? {} : { detail }), now: Date.now() };
}

export type ShownView = NonNullable<Extract<AppEvent, { type: 'shown' }>['view']>;

/**
 * Everything the chat window gets from main: status, transcript and pushed events, and the calls
 * that change them. `onShown` hears which view main showed the window for (the tray's Settings
 * item asks for settings; the hotkey for the chat).
 */
export function useChat(onShown?: (view: ShownView) => void) {
  const [state, dispatch] = useReducer(chatReducer, initialChatState);
  const [status, setStatus] = useState<AppStatus | undefined>();
  const [statusError, setStatusError] = useState<string | undefined>();
  // Bumped when main shows the window, so the input takes focus.
  const [shownCount, setShownCount] = useState(0);
  // The subscription below is made once; the latest callback is read through this.
  const shownListener = useRef(onShown);
  useEffect(() => {
    shownListener.current = onShown;
  });

  useEffect(() => {
    const api = window.deskpilot;
    // Subscribe before asking for history, so no event falls between the two.
    const unsubscribe = api.onEvent((event) => {
      if (event.type === 'agent') dispatch({ type: 'agent', event: event.event, now: Date.now() });
      else if (event.type === 'status') setStatus(event.status);
      else if (event.type === 'notice') dispatch({ type: 'notice', level: event.level, text: event.text, now: Date.now() });
      else if (event.type === 'shown') {
        // Absent means the chat, as the contract says.
        shownListener.current?.(event.view ?? 'chat');
        setShownCount((count) => count + 1);
      }
    });
    api.history().then(
      (entries) => dispatch({ type: 'history', entries }),
      (error: unknown) => {
        dispatch({ type: 'history', entries: [] });
        dispatch(failureNotice('chat.couldNotLoadHistory', error));
      },
    );
    api.status().then(setStatus, (error: unknown) => setStatusError(messageOf(error)));
    return unsubscribe;
  }, []);

  const report = useCallback(
    (what: FailureKey) => (error: unknown) => {
      dispatch(failureNotice(what, error));
    },
    [],
  );

  /** Rejects when main refused the question, so the caller can keep the text and say why. */
  const ask = useCallback(async (text: string): Promise<void> => {
    await window.deskpilot.ask({ text });
  }, []);
  /** For asks with no input to keep the text in (an error entry's Retry): the failure goes into the chat. */
  const askOrReport = useCallback(
    (text: string) => {
      ask(text).catch(report('chat.couldNotAsk'));
    },
    [ask, report],
  );
  const stop = useCallback(() => {
    window.deskpilot.stop().catch(report('chat.couldNotStop'));
  }, [report]);
  /** Resolves false when main refused the answer, so the card can offer its buttons again. */
  const approve = useCallback(
    (id: string, decision: ApprovalDecision): Promise<boolean> =>
      window.deskpilot.approve({ id, decision }).then(
        () => {
          dispatch({ type: 'approved', id, decision });
          return true;
        },
        (error: unknown) => {
          report('chat.couldNotAnswer')(error);
          return false;
        },
      ),
    [report],
  );
  const clear = useCallback(() => {
    window.deskpilot.clearHistory().then(() => dispatch({ type: 'cleared' }), report('chat.couldNotClear'));
  }, [report]);
  const restartHost = useCallback(() => {
    window.deskpilot.restartHost().catch(report('chat.couldNotRestart'));
  }, [report]);
  const refreshStatus = useCallback(() => {
    window.deskpilot.status().then(setStatus, (error: unknown) => setStatusError(messageOf(error)));
  }, []);

  return {
    entries: state.entries,
    running: isRunning(state),
    status,
    statusError,
    shownCount,
    ask,
    askOrReport,
    stop,
    approve,
    clear,
    restartHost,
    refreshStatus,
  };
}
