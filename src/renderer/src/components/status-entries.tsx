import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { unavailableReason, type SerializedError } from '../../../shared/errors';
import type { ChatEntry } from '../../../shared/transcript';
import { errorSentence } from '../failure';
import { FailureText } from './failure-text';

const CONNECTION_REASONS = ['refused', 'timeout', 'dns', 'reset', 'tls', 'other'] as const;

/** What went wrong, in the user's words: a connection names the server they set up and why it failed. */
function errorText({ code, data }: SerializedError, t: TFunction): string {
  const server = data?.['server'];
  const reason = CONNECTION_REASONS.find((each) => each === data?.['reason']) ?? 'other';
  // A broken desktop: what is missing and how to fix it, in the user's words, never the D-Bus text.
  const unavailable = unavailableReason({ code, data });
  if (unavailable !== undefined) return t(`errorDetail.unavailable.${unavailable}`);
  if (code === 'PROVIDER_CONNECTION' && typeof server === 'string') {
    const named = /^https?:/.test(server) ? t('errorDetail.serverAt', { url: server }) : server;
    return t('errorDetail.connection', { server: named, why: t(`errorDetail.connectionWhy.${reason}`) });
  }
  return errorSentence(code, t);
}

/**
 * An ask that failed: what went wrong in the user's words, and the question again at one click.
 * The code and the core's own message stay folded under Details, for bug reports and scripts.
 */
export const ErrorEntry = memo(function ErrorEntry({ entry, onRetry }: { entry: Extract<ChatEntry, { kind: 'error' }>; onRetry(text: string): void }) {
  const { t } = useTranslation();
  const { code, message } = entry.error;
  return (
    // No role="alert": the log around it already announces new entries, and a loaded history would announce every old error at once.
    <div className="error-entry">
      <div className="failure">
        <FailureText failure={{ text: errorText(entry.error, t), detail: `${code}: ${message}` }} />
      </div>
      {entry.retryText === '' ? null : (
        <button type="button" onClick={() => onRetry(entry.retryText)}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
});

/** Something the user should know outside an ask; only a real problem is red. */
export const NoticeEntry = memo(function NoticeEntry({ entry }: { entry: Extract<ChatEntry, { kind: 'notice' }> }) {
  return (
    <div className={`notice ${entry.level}`}>
      <FailureText failure={{ text: entry.text, ...(entry.detail === undefined ? {} : { detail: entry.detail }) }} />
    </div>
  );
});
