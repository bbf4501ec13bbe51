import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { chunkSections } from './chunk';
import { embed, EMBED_BATCH, EmbeddingsUnavailable, type EmbeddingsEndpoint, type EmbedOptions } from './embeddings';
import { Skipped } from './parse/format';
import { sizeText } from './parse/limits';
import { DocReader, type ReaderOptions } from './parse/reader';
import { isWithin, realPath } from './safe-path';
import { cosine, expandWords, ftsQuery, fuse, queryWords, snippet } from './search';
import type { Source } from './sources';
import { DocsStore, type ChunkRow } from './store';
import type { SearchHit, SearchResult } from './types';

export interface IndexProgress {
  done: number;
  total: number;
  /** Files read so far (new or changed); 0 while every file was unchanged. */
  read: number;
  file: string;
}

export interface IndexReport {
  files: number;
  /** Files read and parsed this time (new or changed). */
  indexed: number;
  unchanged: number;
  removed: number;
  sections: number;
  skipped: { path: string; reason: string }[];
  /** Folders with more files than the walk takes: how many of their files were taken. */
  cut: { source: string; taken: number }[];
  ms: number;
  /** Something the user should hear about (a corrupt index rebuilt). */
  notice?: string;
}

export interface DocsStatus {
  file: string;
  sizeBytes: number;
  files: number;
  skipped: number;
  chunks: number;
  updatedAt: number | undefined;
  embedding: { model: string; embedded: number; total: number } | undefined;
}

export interface SearchOptions {
  topN?: number;
  /** Only these files (the sources a query covers: an app's help, the user's folders); every file otherwise. */
  files?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/** Candidates each ranking contributes before fusion. */
const CANDIDATES = 60;
/** Hits from one file at most, so one long manual cannot fill the list. */
const PER_FILE = 2;

/**
 * The documentation index: sources read into sections, stored with their fingerprints, ranked
 * by BM25 and, where the provider embeds, by cosine too, the two fused by rank. Indexing yields
 * between files, so a host serving asks stays responsive while it runs.
 */
export class DocsIndex {
  private readonly store: DocsStore;
  private notice: string | undefined;
  private embedding: Promise<void> | undefined;
  private embedFailure: string | undefined;
  private readonly reader: DocReader;

  constructor(
    file: string,
    private readonly endpoint: () => EmbeddingsEndpoint | undefined = () => undefined,
    private readonly embedOptions: EmbedOptions = {},
    reading: ReaderOptions = {},
  ) {
    this.store = new DocsStore(file);
    this.notice = this.store.recovered;
    this.reader = new DocReader(reading);
  }

  /** Brings the given sources up to date: new and changed files read, unchanged ones only stat'ed, vanished ones dropped. */
  async update(sources: Source[], onProgress?: (progress: IndexProgress) => void, signal?: AbortSignal): Promise<IndexReport> {
    const started = performance.now();
    const report: IndexReport = { files: 0, indexed: 0, unchanged: 0, removed: 0, sections: 0, skipped: [], cut: [], ms: 0 };
    const total = sources.reduce((sum, source) => sum + source.files.length, 0);
    let done = 0;
    for (const source of sources) {
      if (source.cut !== undefined) report.cut.push({ source: source.key, taken: source.cut });
      const present = new Set(source.files);
      for (const path of this.store.filesOf(source.key)) {
        if (present.has(path)) continue;
        this.store.removeFile(path);
        report.removed += 1;
      }
      const roots = source.roots.map((root) => realPath(root) ?? root);
      for (const path of source.files) {
        signal?.throwIfAborted();
        const outcome = await this.updateFile(source.key, path, roots, signal);
        if (outcome.skipped !== undefined) report.skipped.push({ path, reason: outcome.skipped });
        else report.files += 1;
        if (outcome.read) report.indexed += 1;
        else report.unchanged += 1;
        report.sections += outcome.sections;
        done += 1;
        onProgress?.({ done, total, read: report.indexed, file: path });
        // Let the host answer asks between files.
        if (outcome.read) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (report.indexed > 0 || report.removed > 0) {
      this.store.setMeta('updated_at', String(Date.now()));
      this.store.checkpoint();
    }
    report.ms = Math.round(performance.now() - started);
    if (this.notice !== undefined) {
      report.notice = this.notice;
      this.notice = undefined;
    }
    return report;
  }

  /**
   * One file brought up to date. Only what is wrong with the file itself (unreadable, too big,
   * not parseable, too costly to parse) is stored as a skip; anything else (the index locked
   * past its wait, the reader unable to start) is thrown, and the file is read again next time.
   */
  private async updateFile(
    source: string,
    path: string,
    roots: string[],
    signal: AbortSignal | undefined,
  ): Promise<{ read: boolean; skipped: string | undefined; sections: number }> {
    const known = this.store.fileRow(path);
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      return this.skip(source, path, { size: 0, mtimeMs: 0 }, `unreadable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (known !== undefined && known.size === info.size && known.mtime === info.mtimeMs) return { read: false, skipped: known.skipped, sections: 0 };
    if (info.size > this.reader.fileBytes) return this.skip(source, path, info, `larger than ${sizeText(this.reader.fileBytes)}`);
    // The sources list only files under their folders; checked again here, links followed, just before reading.
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined || !roots.some((root) => isWithin(root, real)))
      return this.skip(source, path, info, 'a link to a file outside the documentation folders');
    let bytes: Buffer;
    try {
      bytes = await readFile(real);
    } catch (error) {
      return this.skip(source, path, info, `unreadable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (known !== undefined && known.hash === hash) {
      this.store.touchFile(path, info.size, info.mtimeMs);
      return { read: false, skipped: known.skipped, sections: 0 };
    }
    // Recorded before the parse: should it take the whole program down, the next run finds this
    // and skips the file instead of crashing on it again.
    this.store.putFile({ path, source, size: info.size, mtime: info.mtimeMs, hash, skipped: INTERRUPTED }, [], known !== undefined);
    let doc;
    try {
      doc = await this.reader.read(path, bytes, signal);
    } catch (error) {
      if (error instanceof Skipped) return this.skip(source, path, info, error.reason, hash);
      // Not the file's fault (stopped, or the reader could not start): forgotten, so it is read next time.
      this.store.removeFile(path);
      throw error;
    }
    const chunks = chunkSections(doc.title, doc.sections);
    if (chunks.length === 0) return this.skip(source, path, info, 'no text in it', hash);
    this.store.putFile({ path, source, size: info.size, mtime: info.mtimeMs, hash, skipped: undefined }, chunks);
    return { read: true, skipped: undefined, sections: doc.sections.length };
  }

  private skip(
    source: string,
    path: string,
    info: { size: number; mtimeMs: number },
    reason: string,
    hash = '',
  ): { read: boolean; skipped: string; sections: number } {
    this.store.putFile({ path, source, size: info.size, mtime: info.mtimeMs, hash, skipped: reason }, []);
    return { read: true, skipped: reason, sections: 0 };
  }

  /**
   * Embeds every chunk the current model has no vector for, in the background: one run at a
   * time, batch by batch. A model change drops the old vectors first; until the new ones are
   * all in, search stays full-text and says so.
   */
  embedPending(signal?: AbortSignal): Promise<void> {
    this.embedding ??= this.runEmbedding(signal).finally(() => (this.embedding = undefined));
    return this.embedding;
  }

  private async runEmbedding(signal?: AbortSignal): Promise<void> {
    const endpoint = this.endpoint();
    if (endpoint === undefined) return;
    if (this.store.meta('embedding_model') !== endpoint.model) {
      this.store.keepVectorsOf(endpoint.model);
      this.store.setMeta('embedding_model', endpoint.model);
    }
    this.embedFailure = undefined;
    try {
      for (;;) {
        const batch = this.store.unembedded(endpoint.model, EMBED_BATCH);
        if (batch.length === 0) return;
        const vectors = await embed(endpoint, batch.map(embeddingText), { ...this.embedOptions, ...(signal === undefined ? {} : { signal }) });
        this.store.putVectors(
          endpoint.model,
          batch.map((chunk, index) => ({ id: chunk.id, vector: vectors[index] as Float32Array })),
        );
      }
    } catch (error) {
      this.embedFailure = error instanceof EmbeddingsUnavailable ? error.message : `embedding stopped: ${(error as Error).message}`;
      if (!(error instanceof EmbeddingsUnavailable) && signal?.aborted !== true) throw error;
    }
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const topN = options.topN ?? 5;
    const words = queryWords(query);
    if (words.length === 0) return { hits: [], mode: 'full-text', note: 'the query has no words to search for' };
    const allowed = options.files;
    const wanted = allowed === undefined ? CANDIDATES : CANDIDATES * 8;
    const textRanked = this.store
      .fullText(ftsQuery(expandWords(words)), wanted)
      .filter((row) => allowed === undefined || allowed.has(row.path))
      .slice(0, CANDIDATES);
    const { ranked, mode, note } = await this.withVectors(query, textRanked, allowed, options.signal);
    const hits: SearchHit[] = [];
    const perFile = new Map<string, number>();
    for (const { id, score } of ranked) {
      const chunk = this.store.chunk(id);
      if (chunk === undefined) continue;
      const count = perFile.get(chunk.path) ?? 0;
      if (count >= PER_FILE || hits.some((hit) => hit.source === sourceOf(chunk))) continue;
      perFile.set(chunk.path, count + 1);
      hits.push({ source: sourceOf(chunk), title: chunk.title, section: chunk.section, score: Number(score.toFixed(4)), snippet: snippet(chunk.text, words) });
      if (hits.length >= topN) break;
    }
    return { hits, mode, ...(note === undefined ? {} : { note }) };
  }

  private async withVectors(
    query: string,
    textRanked: { id: number; score: number }[],
    allowed: ReadonlySet<string> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ ranked: { id: number; score: number }[]; mode: SearchResult['mode']; note?: string }> {
    const fullText = (note: string) => ({ ranked: textRanked, mode: 'full-text' as const, note });
    const endpoint = this.endpoint();
    if (endpoint === undefined) return fullText('full-text only: the provider has no embedding model configured');
    if (this.embedFailure !== undefined) return fullText(`full-text only: ${this.embedFailure}`);
    const { chunks, vectors } = this.store.counts();
    const embedded = this.store.meta('embedding_model') === endpoint.model ? vectors : 0;
    if (embedded < chunks) return fullText(`full-text only while ${endpoint.model} embeds the index (${embedded}/${chunks} chunks)`);
    try {
      const [queryVector] = await embed(endpoint, [query], { ...this.embedOptions, attempts: 2, ...(signal === undefined ? {} : { signal }) });
      const byVector = this.store
        .vectors(endpoint.model)
        .filter(({ path }) => allowed === undefined || allowed.has(path))
        .map(({ id, vector }) => ({ id, score: cosine(queryVector as Float32Array, vector) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, CANDIDATES)
        .map((row) => row.id);
      return { ranked: fuse([textRanked.map((row) => row.id), byVector]), mode: 'hybrid' };
    } catch (error) {
      return fullText(`full-text only: embedding the query failed (${(error as Error).message})`);
    }
  }

  status(): DocsStatus {
    const counts = this.store.counts();
    const endpoint = this.endpoint();
    const updated = this.store.meta('updated_at');
    let sizeBytes = 0;
    for (const suffix of ['', '-wal']) sizeBytes += statSafe(`${this.store.path}${suffix}`);
    return {
      file: this.store.path,
      sizeBytes,
      files: counts.files,
      skipped: counts.skipped,
      chunks: counts.chunks,
      updatedAt: updated === undefined ? undefined : Number(updated),
      embedding:
        endpoint === undefined
          ? undefined
          : { model: endpoint.model, embedded: this.store.meta('embedding_model') === endpoint.model ? counts.vectors : 0, total: counts.chunks },
    };
  }

  textBytes(): number {
    return this.store.textBytes();
  }

  close(): void {
    this.reader.close();
    this.store.close();
  }
}

/** Stored for a file while it is parsed; still there next time only if the program died parsing it. */
export const INTERRUPTED = 'reading it did not finish last time (the program stopped or crashed on it); it is read again when it changes';

function sourceOf(chunk: ChunkRow): string {
  return chunk.anchor === '' ? chunk.path : `${chunk.path}#${chunk.anchor}`;
}

/** What is embedded for a chunk: where it sits, then its text. */
function embeddingText(chunk: ChunkRow): string {
  return [chunk.title, chunk.section, chunk.text].filter(Boolean).join('\n');
}

function statSafe(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
