import { memo } from 'react';
import type { ChatEntry } from '../../../shared/transcript';
import { CopyButton } from './copy-button';

export const UserMessage = memo(function UserMessage({ entry }: { entry: Extract<ChatEntry, { kind: 'user' }> }) {
  return (
    <article className="message user" aria-label="You">
      <p className="user-text">{entry.text}</p>
      <footer className="message-footer">
        <CopyButton text={entry.text} label="Copy question" />
      </footer>
    </article>
  );
});
