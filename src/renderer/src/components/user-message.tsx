import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '../../../shared/transcript';
import { CopyButton } from './copy-button';

export const UserMessage = memo(function UserMessage({ entry }: { entry: Extract<ChatEntry, { kind: 'user' }> }) {
  const { t } = useTranslation();
  return (
    <article className="message user" aria-label={t('chat.you')}>
      <p className="user-text">{entry.text}</p>
      <footer className="message-footer">
        <CopyButton text={entry.text} label={t('chat.copyQuestion')} />
      </footer>
    </article>
  );
});
