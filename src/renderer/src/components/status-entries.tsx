import { memo } from 'react';
import type { ChatEntry } from '../../../shared/transcript';

/** An ask that failed: what went wrong, and the question again at one click. */
export const ErrorEntry = memo(function ErrorEntry({ entry, onRetry }: { entry: Extract<ChatEntry, { kind: 'error' }>; onRetry(text: string): void }) {
  return (
    // No role="alert": the log around it already announces new entries, and a loaded history would announce every old error at once.
    <div className="error-entry">
      <p>
        <strong>Something went wrong</strong> ({entry.error.code}): {entry.error.message}
      </p>
      {entry.retryText === '' ? null : (
        <button type="button" onClick={() => onRetry(entry.retryText)}>
          Retry
        </button>
      )}
    </div>
  );
});

export const NoticeEntry = memo(function NoticeEntry({ entry }: { entry: Extract<ChatEntry, { kind: 'notice' }> }) {
  return <p className={`notice ${entry.level}`}>{entry.text}</p>;
});
