import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '../../../shared/transcript';
import { CopyButton } from './copy-button';
import { MarkdownView } from './markdown-view';

type Entry = Extract<ChatEntry, { kind: 'assistant' }>;

/** An answer: markdown, its state (streaming, stopped, cached) and the end-state check. */
export const AssistantMessage = memo(function AssistantMessage({ entry }: { entry: Entry }) {
  const { check } = entry;
  const { t } = useTranslation();
  return (
    <article className="message assistant" aria-label={t('chat.assistant')} aria-busy={entry.streaming}>
      {entry.text === '' && !entry.streaming ? null : <MarkdownView text={entry.text} streaming={entry.streaming} />}
      {entry.streaming && entry.text === '' ? <p className="muted">{t('chat.thinking')}</p> : null}
      {check !== undefined && !check.confirmed ? (
        <p className="check-warning">
          <strong>{t('chat.notConfirmed')}</strong> {t('chat.notConfirmedText')}
          {check.notes.length > 0 ? ` ${check.notes.join(' ')}` : ''}
        </p>
      ) : null}
      {check?.confirmed === true ? <p className="check-ok">{t('chat.checked')}</p> : null}
      <footer className="message-footer">
        {entry.interrupted === true ? <span className="badge">{entry.text === '' ? t('chat.stopped') : t('chat.interrupted')}</span> : null}
        {entry.cached === true ? (
          <span className="badge" title={t('chat.cachedTitle')}>
            {t('chat.cached')}
          </span>
        ) : null}
        {entry.streaming || entry.text === '' ? null : <CopyButton text={entry.text} label={t('chat.copyAnswer')} />}
      </footer>
    </article>
  );
});
