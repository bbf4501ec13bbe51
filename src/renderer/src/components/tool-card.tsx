import { memo } from 'react';
import type { ChatEntry } from '../../../shared/transcript';

type Entry = Extract<ChatEntry, { kind: 'tool' }>;

function parseArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** "click · Save button · accessibility · changed": what a glance needs; the rest is behind the toggle. */
export function toolSummary(entry: Entry): string[] {
  const args = parseArguments(entry.arguments) ?? {};
  const action = entry.name === 'ui_action' ? (text(args['action']) ?? 'ui_action') : entry.name.replaceAll('_', ' ');
  const target = entry.target ?? text(args['name']) ?? text(args['text']) ?? text(args['app']) ?? text(args['id']) ?? text(args['query']) ?? text(args['role']);
  const parts = [action];
  if (target !== undefined) parts.push(target);
  if (entry.method !== undefined) parts.push(entry.method);
  if (entry.changed !== undefined) parts.push(entry.changed ? 'changed' : 'no change');
  return parts;
}

function prettyArguments(raw: string): string {
  const parsed = parseArguments(raw);
  return parsed === undefined ? raw : JSON.stringify(parsed, null, 2);
}

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
