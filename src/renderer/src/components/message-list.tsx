import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApprovalDecision } from '../../../shared/settings';
import type { SuggestionKind } from '../../../shared/suggestions';
import type { ChatEntry } from '../../../shared/transcript';
import { useAutoScroll } from '../hooks/use-auto-scroll';
import { ApprovalCard } from './approval-card';
import { AssistantMessage } from './assistant-message';
import { Icon } from './icons';
import { ErrorEntry, NoticeEntry } from './status-entries';
import { ToolCard } from './tool-card';
import { UserMessage } from './user-message';

interface Props {
  entries: ChatEntry[];
  running: boolean;
  onAnswer(id: string, decision: ApprovalDecision): Promise<boolean>;
  onRetry(text: string): void;
  /** Bumped when the user sends a question: the list scrolls to it and follows again. */
  followSignal: number;
  /** What an empty chat offers to ask about the app (from its tree). */
  suggestions: readonly SuggestionKind[];
  onSuggest(kind: SuggestionKind): void;
}

function EntryView({ entry, onAnswer, onRetry }: { entry: ChatEntry } & Pick<Props, 'onAnswer' | 'onRetry'>) {
  switch (entry.kind) {
    case 'user':
      return <UserMessage entry={entry} />;
    case 'assistant':
      return <AssistantMessage entry={entry} />;
    case 'tool':
      return <ToolCard entry={entry} />;
    case 'approval':
      return <ApprovalCard entry={entry} onAnswer={onAnswer} />;
    case 'error':
      return <ErrorEntry entry={entry} onRetry={onRetry} />;
    case 'notice':
      return <NoticeEntry entry={entry} />;
  }
}

/** While an ask runs with nothing visibly moving (reading the app, waiting for the model), say so. */
function isQuiet(last: ChatEntry | undefined): boolean {
  if (last === undefined) return true;
  if (last.kind === 'assistant') return !last.streaming;
  if (last.kind === 'tool') return last.status !== 'running';
  if (last.kind === 'approval') return last.decision !== undefined || last.expired === true;
  return true;
}

export function MessageList({ entries, running, onAnswer, onRetry, followSignal, suggestions, onSuggest }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const { following, onScroll, jump } = useAutoScroll(scroller, content);
  const { t } = useTranslation();
  useEffect(() => {
    if (followSignal > 0) jump();
  }, [followSignal, jump]);
  // No aria-busy on the log: busy for a whole ask, it kept screen readers from announcing anything
  // in it, approvals included. The streaming answer alone is busy (assistant-message.tsx).
  return (
    <div className="message-area">
      {/* Focusable so the keyboard can scroll it, and so a region with a name; the log inside keeps the announcing. */}
      <div className="message-scroller" ref={scroller} onScroll={onScroll} tabIndex={0} role="region" aria-label={t('chat.conversation')}>
        <div className="message-list" ref={content} role="log" aria-live="polite" aria-label={t('chat.messages')}>
          {entries.length === 0 ? (
            <div className="empty">
              <p className="muted">{t('chat.empty')}</p>
              {suggestions.length === 0 ? null : (
                <ul className="suggestions" aria-label={t('chat.suggestions')}>
                  {suggestions.map((kind) => (
                    <li key={kind}>
                      <button type="button" onClick={() => onSuggest(kind)}>
                        {t(`chat.suggest.${kind}`)}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ) : null}
          {entries.map((entry) => (
            // Ids are unique per kind (the reducer makes them so), not across kinds.
            <EntryView key={`${entry.kind}:${entry.id}`} entry={entry} onAnswer={onAnswer} onRetry={onRetry} />
          ))}
          {running && isQuiet(entries.at(-1)) ? <p className="working muted">{t('chat.working')}</p> : null}
        </div>
      </div>
      {following ? null : (
        <button type="button" className="jump-button" onClick={jump}>
          <Icon name="down" /> {t('chat.jump')}
        </button>
      )}
    </div>
  );
}
