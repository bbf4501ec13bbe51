import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure, type Failure } from '../failure';
import { FailureText } from './failure-text';
import { Icon } from './icons';

/** The input grows with its text up to this height, then scrolls. */
const MAX_HEIGHT_PX = 160;

interface Props {
  running: boolean;
  /** Rejects when the question was not taken: the text stays in the input to send again. */
  onSend(text: string): Promise<void>;
  onStop(): void;
  /** Bumped when main shows the window: the input takes focus. */
  focusSignal: number;
  /** Text a suggestion puts in the input for the user to finish (a new object each time). */
  draft?: { text: string } | undefined;
}

export function Composer({ running, onSend, onStop, focusSignal, draft }: Props) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<Failure | undefined>();
  const input = useRef<HTMLTextAreaElement>(null);
  const { t } = useTranslation();

  // Height through the CSSOM, which the CSP allows (unlike style attributes in markup).
  useLayoutEffect(() => {
    const element = input.current;
    if (element === null) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
    element.style.overflowY = element.scrollHeight > MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [text]);

  useEffect(() => input.current?.focus(), [focusSignal]);

  useEffect(() => {
    if (draft === undefined) return;
    setText(draft.text);
    const element = input.current;
    element?.focus();
    // The caret after the words, where the user goes on typing.
    element?.setSelectionRange(draft.text.length, draft.text.length);
  }, [draft]);

  const send = () => {
    if (text.trim() === '' || sending) return;
    const sent = text;
    setSending(true);
    setError(undefined);
    void onSend(sent.trim())
      .then(
        // Cleared only once main took it, and only if the user has not started the next one meanwhile.
        () => setText((current) => (current === sent ? '' : current)),
        (reason: unknown) => setError(describeFailure(reason, t)),
      )
      .finally(() => setSending(false));
  };

  const retry = () => {
    // Back to the input first: the Retry button goes away once the question is taken.
    input.current?.focus();
    send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an input method is composing picks the candidate; it does not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <>
      {error === undefined ? null : (
        <div className="composer-error" role="alert">
          <div className="failure">
            <FailureText failure={{ ...error, text: t('composer.couldNotSend', { error: error.text }) }} />
          </div>
          <button type="button" onClick={retry} disabled={sending || text.trim() === ''}>
            {t('common.retry')}
          </button>
        </div>
      )}
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <textarea
          ref={input}
          rows={1}
          value={text}
          aria-label={t('composer.label')}
          placeholder={t('composer.placeholder')}
          title={t('composer.hint')}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {running ? (
          <button type="button" className="icon-button stop-button" aria-label={t('composer.stop')} title={t('composer.stopTitle')} onClick={onStop}>
            <Icon name="stop" />
          </button>
        ) : null}
        <button
          type="submit"
          className="icon-button send-button"
          aria-label={t('composer.send')}
          title={t('composer.sendTitle')}
          disabled={text.trim() === '' || sending}
        >
          <Icon name="send" />
        </button>
      </form>
    </>
  );
}
