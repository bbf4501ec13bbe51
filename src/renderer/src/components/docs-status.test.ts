import { describe, expect, it } from 'vitest';
import { describeDocsStatus, formatBytes } from './docs-status';

const base = { files: 12, skipped: 0, sections: 40, sizeBytes: 180_000, updatedAt: null, indexing: null, embedding: null };

describe('documentation status in Settings', () => {
  it('reads sizes the way people do', () => {
    expect([formatBytes(512), formatBytes(180_000), formatBytes(5_500_000), formatBytes(3 * 1024 ** 3)]).toEqual(['512 B', '176 KB', '5.2 MB', '3.0 GB']);
  });

  it('says what the index holds, whether it is full-text only, and how far indexing and embedding are', () => {
    expect(describeDocsStatus(base)).toEqual(['12 files, 40 sections, 176 KB; never updated.', 'Full-text search (no embedding model set for this provider).']);
    const busy = describeDocsStatus({
      ...base,
      skipped: 2,
      indexing: { done: 3, total: 12 },
      embedding: { model: 'nomic-embed-text', embedded: 10, total: 40 },
    });
    expect(busy[0]).toBe('Indexing: 3 of 12 files…');
    expect(busy[1]).toMatch(/^12 files, 2 skipped/);
    expect(busy[2]).toBe('Embedding with nomic-embed-text: 10 of 40 sections; full-text search until then.');
    expect(describeDocsStatus({ ...base, embedding: { model: 'm', embedded: 40, total: 40 } })[1]).toBe('Semantic search with m.');
    expect(describeDocsStatus({ ...base, updatedAt: Date.UTC(2026, 10, 24, 9, 30) }, 'en-GB')[0]).toMatch(/updated 24 Nov 2026/);
  });
});
