import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n';
import { describeDocsStatus, formatBytes } from './docs-status';

const base = { files: 12, skipped: 0, sections: 40, sizeBytes: 180_000, updatedAt: null, indexing: null, embedding: null };
const EN = createI18n('en');
const PT = createI18n('pt-BR');

describe('documentation status in Settings', () => {
  it('reads sizes the way people do, in each language', () => {
    expect([formatBytes(512, 'en'), formatBytes(180_000, 'en'), formatBytes(5_500_000, 'en'), formatBytes(3 * 1024 ** 3, 'en')]).toEqual([
      '512 byte',
      '176 kB',
      '5.2 MB',
      '3.0 GB',
    ]);
    expect(formatBytes(5_500_000, 'pt-BR')).toBe('5,2 MB');
  });

  it('says what the index holds, whether it is full-text only, and how far indexing and embedding are', () => {
    expect(describeDocsStatus(base, EN)).toEqual([
      '12 files, 40 sections, 176 kB; never updated.',
      'Full-text search (no embedding model set for this provider).',
    ]);
    const busy = describeDocsStatus(
      { ...base, skipped: 2, indexing: { done: 3, total: 12 }, embedding: { model: 'nomic-embed-text', embedded: 10, total: 40 } },
      EN,
    );
    expect(busy[0]).toBe('Indexing: 3 of 12 files…');
    expect(busy[1]).toMatch(/^12 files, 2 skipped/);
    expect(busy[2]).toBe('Embedding with nomic-embed-text: 10 of 40 sections; full-text search until then.');
    expect(describeDocsStatus({ ...base, embedding: { model: 'm', embedded: 40, total: 40 } }, EN)[1]).toBe('Semantic search with m.');
    expect(describeDocsStatus({ ...base, updatedAt: Date.UTC(2026, 10, 24, 9, 30) }, { t: EN.t, language: 'en-GB' })[0]).toMatch(/updated 24 Nov 2026/);
  });

  it('speaks Brazilian Portuguese, with its plural forms and number format', () => {
    expect(describeDocsStatus({ ...base, files: 1, sections: 1_000_000 }, PT)[0]).toBe('1 arquivo, 1.000.000 de seções, 176 kB; nunca atualizado.');
    expect(describeDocsStatus({ ...base, files: 0, sections: 2 }, PT)[0]).toMatch(/^0 arquivo, 2 seções/);
    expect(describeDocsStatus({ ...base, indexing: { done: 1500, total: 2000 } }, PT)[0]).toBe('Indexando: 1.500 de 2.000 arquivos…');
    expect(describeDocsStatus({ ...base, updatedAt: Date.UTC(2026, 10, 24, 9, 30) }, PT)[0]).toMatch(/atualizado em 24 de nov\. de 2026/);
  });
});
