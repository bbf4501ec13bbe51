/**
 * npm run bench:docs — documentation search on a corpus no project code wrote: the English
 * GNOME help from Debian's gnome-user-docs. Recall@5 and MRR@10 of full-text search on the
 * judged questions in bench/docs-queries.json, cold index time, re-index time with nothing
 * changed, query latency and index size; then the hybrid path once against a local fake
 * /v1/embeddings server, for plumbing only.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocsIndex } from '../src/core/doc-search/docs-index';
import { startFakeEmbeddings } from '../src/core/doc-search/fake-embeddings';
import { folderSource } from '../src/core/doc-search/sources';
import { median, ms, quantile } from './stats';

const CORPUS = ['/usr/share/help/C/gnome-help', '/usr/share/help/C/system-admin-guide'];
const QUERIES = JSON.parse(readFileSync(new URL('./docs-queries.json', import.meta.url), 'utf8')) as { queries: { q: string; pages: string[] }[] };

const pageOf = (source: string): string => path.basename(source.replace(/#.*$/, '')).replace(/\.page$/, '');

async function evaluate(index: DocsIndex): Promise<{ recall: number; mrr: number; times: number[]; misses: string[] }> {
  let found = 0;
  let reciprocal = 0;
  const times: number[] = [];
  const misses: string[] = [];
  for (const { q, pages } of QUERIES.queries) {
    const started = performance.now();
    const { hits } = await index.search(q, { topN: 10 });
    times.push(performance.now() - started);
    const ranks = hits.map((hit) => pageOf(hit.source));
    const first = ranks.findIndex((page) => pages.includes(page));
    if (first >= 0 && first < 5) found += 1;
    else misses.push(`${q} → ${ranks.slice(0, 3).join(', ')}`);
    if (first >= 0) reciprocal += 1 / (first + 1);
  }
  return { recall: found / QUERIES.queries.length, mrr: reciprocal / QUERIES.queries.length, times, misses };
}

async function main(): Promise<void> {
  const missing = CORPUS.filter((dir) => !existsSync(dir));
  if (missing.length > 0) throw new Error(`install gnome-user-docs first (apt-get install gnome-user-docs): missing ${missing.join(', ')}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-bench-docs-'));
  try {
    const sources = CORPUS.map((dir) => folderSource(dir));
    const index = new DocsIndex(path.join(dir, 'docs.sqlite'));
    const cold = await index.update(sources);
    const again = await index.update(sources);
    const status = index.status();
    const textBytes = sources.flatMap((source) => source.files).length;
    const { recall, mrr, times, misses } = await evaluate(index);
    const corpusText = index.textBytes();
    console.log(
      `corpus: ${textBytes} files, ${cold.sections} sections, ${status.chunks} chunks, ${(corpusText / 1024).toFixed(0)} KiB of text; ${cold.skipped.length} skipped`,
    );
    console.log(
      `index: cold ${ms(cold.ms)} ms, again with nothing changed ${ms(again.ms)} ms, ${(status.sizeBytes / 1024).toFixed(0)} KiB on disk (${(status.sizeBytes / corpusText).toFixed(2)}x the text)`,
    );
    console.log(
      `full-text, ${QUERIES.queries.length} judged questions: recall@5=${recall.toFixed(3)} mrr@10=${mrr.toFixed(3)} query p50=${ms(median(times))} ms p95=${ms(quantile(times, 0.95))} ms`,
    );
    for (const miss of misses) console.log(`  missed in top 5: ${miss}`);
    index.close();

    // Hybrid plumbing against a fake server whose vectors are hashed words: not a quality figure.
    const fake = await startFakeEmbeddings();
    try {
      const hybrid = new DocsIndex(path.join(dir, 'docs.sqlite'), () => ({ baseUrl: fake.baseUrl, model: 'fake-hashed-words' }));
      const started = performance.now();
      await hybrid.embedPending();
      const embedMs = performance.now() - started;
      const result = await evaluate(hybrid);
      const sample = await hybrid.search(QUERIES.queries[0]?.q ?? 'wifi');
      console.log(
        `hybrid plumbing (fake /v1/embeddings, hashed words, NOT a quality figure): mode=${sample.mode} embedded ${hybrid.status().embedding?.embedded} chunks in ${ms(embedMs)} ms over ${fake.requests.length} requests; recall@5=${result.recall.toFixed(3)}`,
      );
      hybrid.close();
    } finally {
      await fake.close();
    }
    console.log(
      `docs_search: recall_at_5=${recall.toFixed(3)} mrr_at_10=${mrr.toFixed(3)} index_s=${(cold.ms / 1000).toFixed(2)} reindex_ms=${ms(again.ms)} query_p95_ms=${ms(quantile(times, 0.95))}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
