import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '../../../shared/transcript';
import { failureLine, prettyArguments, toolLabel } from './tool-summary';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

/** One tool call: a plain sentence while closed (and why it failed), the technical record inside. */
export const ToolCard = memo(function ToolCard({ entry }: { entry: Entry }) {
  const { t, i18n } = useTranslation();
  const { before, strong, after } = toolLabel(entry, t, i18n.language);
  const status = t(`tool.status.${entry.status}`);
  const failure = failureLine(entry, t);
  const how = [
    ...(entry.method === 'accessibility' || entry.method === 'input' ? [t(`tool.method.${entry.method}`)] : []),
    ...(entry.changed === undefined ? [] : [entry.changed ? t('tool.changed') : t('tool.noChange')]),
  ];
  return (
    <details className={`tool-card ${entry.status}`}>
      <summary>
        <span className={`status-dot ${entry.status}`} aria-hidden="true" />
        <span className="tool-text">
          <span className="tool-summary">
            {before}
            <strong>{strong}</strong>
            {after}
          </span>
          {/* In the summary, so a failed card says why while closed. */}
          {failure === undefined ? null : <span className="tool-failure">{t('tool.failedBecause', { reason: failure })}</span>}
        </span>
        <span className="tool-status">{status}</span>
      </summary>
      <div className="tool-details">
        <h3>{t('tool.details')}</h3>
        <pre>
          {entry.name}
          {how.length === 0 ? '' : ` · ${how.join(' · ')}`}
        </pre>
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
