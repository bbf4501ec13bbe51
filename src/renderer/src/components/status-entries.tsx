import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '../../../shared/transcript';
import { errorSentence } from '../failure';

/**
 * An ask that failed: what went wrong in the user's language, and the question again at one click.
 * The code stays as it is (scripts and bug reports rely on it); the message from the core is the detail.
 */
export const ErrorEntry = memo(function ErrorEntry({ entry, onRetry }: { entry: Extract<ChatEntry, { kind: 'error' }>; onRetry(text: string): void }) {
  const { t } = useTranslation();
  const { code, message } = entry.error;
  // A code from a newer host than this window knows still gets a sentence.
  const summary = errorSentence(code, t);
  return (
    // No role="alert": the log around it already announces new entries, and a loaded history would announce every old error at once.
    <div className="error-entry">
      <p>
        <strong>{t('chat.somethingWrong')}</strong> ({code}): {summary}
      </p>
      {message === '' || message === summary ? null : <p className="error-detail">{message}</p>}
      {entry.retryText === '' ? null : (
        <button type="button" onClick={() => onRetry(entry.retryText)}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
});

export const NoticeEntry = memo(function NoticeEntry({ entry }: { entry: Extract<ChatEntry, { kind: 'notice' }> }) {
  return <p className={`notice ${entry.level}`}>{entry.text}</p>;
});
