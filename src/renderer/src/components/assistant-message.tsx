import { memo } from 'react';
import type { ChatEntry } from '../../../shared/transcript';
import { CopyButton } from './copy-button';
import { MarkdownView } from './markdown-view';

type Entry = Extract<ChatEntry, { kind: 'assistant' }>;

/** An answer: markdown, its state (streaming, stopped, cached) and the end-state check. */
export const AssistantMessage = memo(function AssistantMessage({ entry }: { entry: Entry }) {
  const { check } = entry;
  return (
    <article className="message assistant" aria-label="Deskpilot" aria-busy={entry.streaming}>
      {entry.text === '' && !entry.streaming ? null : <MarkdownView text={entry.text} streaming={entry.streaming} />}
      {entry.streaming && entry.text === '' ? <p className="muted">Thinking…</p> : null}
      {check !== undefined && !check.confirmed ? (
        <p className="check-warning">
          <strong>Not confirmed:</strong> the app did not visibly end up as reported.{check.notes.length > 0 ? ` ${check.notes.join(' ')}` : ''}
        </p>
      ) : null}
      {check?.confirmed === true ? <p className="check-ok">End state checked.</p> : null}
      <footer className="message-footer">
        {entry.interrupted === true ? <span className="badge">{entry.text === '' ? 'Stopped' : 'Interrupted'}</span> : null}
        {entry.cached === true ? (
          <span className="badge" title="Replayed from the last 5 minutes">
            Cached
          </span>
        ) : null}
        {entry.streaming || entry.text === '' ? null : <CopyButton text={entry.text} label="Copy answer" />}
      </footer>
    </article>
  );
});
