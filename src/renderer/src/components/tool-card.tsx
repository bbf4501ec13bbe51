import { memo } from 'react';
import type { ChatEntry } from '../../../shared/transcript';
import { prettyArguments, toolSummary } from './tool-summary';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

const STATUS_LABEL = { running: 'Running', ok: 'Done', failed: 'Failed' } as const;

export const ToolCard = memo(function ToolCard({ entry }: { entry: Entry }) {
  const summary = toolSummary(entry).join(' · ');
  return (
    <details className={`tool-card ${entry.status}`}>
      <summary aria-label={`${STATUS_LABEL[entry.status]}: ${summary}`}>
        <span className={`status-dot ${entry.status}`} aria-hidden="true" />
        <span className="tool-summary">{summary}</span>
        <span className="tool-status">{STATUS_LABEL[entry.status]}</span>
      </summary>
      <div className="tool-details">
        <h3>Arguments</h3>
        <pre>{prettyArguments(entry.arguments)}</pre>
        {entry.message === undefined ? null : (
          <>
            <h3>Result</h3>
            <pre>{entry.message}</pre>
          </>
        )}
        {entry.logs.length === 0 ? null : (
          <>
            <h3>Log</h3>
            <pre>{entry.logs.join('\n')}</pre>
          </>
        )}
      </div>
    </details>
  );
});
