import type { i18n } from 'i18next';
import type { DocsStatus } from '../../../shared/ipc';

/** 180000 → "176 kB", as the language writes it: what a person reads, not bytes. */
export function formatBytes(bytes: number, locale?: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit > 0 && value < 10 ? 1 : 0;
  const format = new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return format.format(value);
}

/** The index in one or two short lines for Settings: what it holds, when it changed, what is running. */
export function describeDocsStatus(status: DocsStatus, { t, language }: Pick<i18n, 't' | 'language'>): string[] {
  const lines: string[] = [];
  if (status.indexing !== null) {
    const { done, total } = status.indexing;
    lines.push(total === 0 ? t('docs.lookingForFiles') : t('docs.indexing', { done, count: total }));
  }
  const updated =
    status.updatedAt === null
      ? t('docs.neverUpdated')
      : t('docs.updated', { date: new Date(status.updatedAt).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' }) });
  const parts = [t('docs.files', { count: status.files })];
  if (status.skipped > 0) parts.push(t('docs.skipped', { count: status.skipped }));
  parts.push(t('docs.sections', { count: status.sections }));
  lines.push(t('docs.summary', { parts: parts.join(', '), size: formatBytes(status.sizeBytes, language), updated }));
  if (status.embedding !== null) {
    const { model, embedded, total } = status.embedding;
    lines.push(embedded >= total ? t('docs.semantic', { model }) : t('docs.embedding', { model, embedded, total }));
  } else lines.push(t('docs.fullText'));
  return lines;
}
