import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '../../../shared/transcript';
import { prettyArguments, toolSummary } from './tool-summary';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

export const ToolCard = memo(function ToolCard({ entry }: { entry: Entry }) {
  const { t } = useTranslation();
  const summary = toolSummary(entry, t).join(' · ');
  const status = t(`tool.status.${entry.status}`);
  return (
    <details className={`tool-card ${entry.status}`}>
      <summary aria-label={`${status}: ${summary}`}>
        <span className={`status-dot ${entry.status}`} aria-hidden="true" />
        <span className="tool-summary">{summary}</span>
        <span className="tool-status">{status}</span>
      </summary>
      <div className="tool-details">
        <h3>{t('tool.arguments')}</h3>
        <pre>{prettyArguments(entry.arguments)}</pre>
        {entry.message === undefined ? null : (
          <>
            <h3>{t('tool.result')}</h3>
            <pre>{entry.message}</pre>
          </>
        )}
        {entry.logs.length === 0 ? null : (
          <>
            <h3>{t('tool.log')}</h3>
            <pre>{entry.logs.join('\n')}</pre>
          </>
        )}
      </div>
    </details>
  );
});
