import type { DocsStatus } from '../../../shared/ipc';

/** 180000 → "176 KB": what a person reads, not bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit] as string}`;
}

/** The index in one or two short lines for Settings: what it holds, when it changed, what is running. */
export function describeDocsStatus(status: DocsStatus, locale?: string): string[] {
  const lines: string[] = [];
  if (status.indexing !== null)
    lines.push(status.indexing.total === 0 ? 'Indexing: looking for files…' : `Indexing: ${status.indexing.done} of ${status.indexing.total} files…`);
  const updated =
    status.updatedAt === null ? 'never updated' : `updated ${new Date(status.updatedAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}`;
  const skipped = status.skipped === 0 ? '' : `, ${status.skipped} skipped`;
  lines.push(`${status.files} files${skipped}, ${status.sections} sections, ${formatBytes(status.sizeBytes)}; ${updated}.`);
  if (status.embedding !== null) {
    const { model, embedded, total } = status.embedding;
    lines.push(
      embedded >= total ? `Semantic search with ${model}.` : `Embedding with ${model}: ${embedded} of ${total} sections; full-text search until then.`,
    );
  } else lines.push('Full-text search (no embedding model set for this provider).');
  return lines;
}
