import { existsSync, renameSync, rmSync } from 'node:fs';
import type * as Sqlite from 'node:sqlite';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { DeskpilotError } from '../../shared/errors';
import type { Chunk } from './chunk';

/** Bumped when the tables change: an index of another version is rebuilt, never misread. */
const SCHEMA_VERSION = '1';

export interface FileRow {
  path: string;
  source: string;
  size: number;
  mtime: number;
  hash: string;
  /** Why it is not in the index; undefined when it is. */
  skipped: string | undefined;
}

export interface ChunkRow {
  id: number;
  path: string;
  anchor: string;
  title: string;
  section: string;
  text: string;
}

/**
 * node:sqlite ships inside Node 22 and Electron (no native module to rebuild per ABI), with
 * FTS5 and its porter stemmer compiled in. It still warns that it is experimental; that one
 * warning is silenced so the CLI's output stays clean, every other warning stays.
 */
function loadSqlite(): typeof Sqlite {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

/** The on-disk index: files with their fingerprints, chunks in an FTS5 table, and vectors per embedding model. */
export class DocsStore {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  /** Set when an unreadable index was moved aside on open; the caller tells the user. */
  readonly recovered: string | undefined;

  constructor(readonly path: string) {
    const { DatabaseSync: Database } = loadSqlite();
    let recovered: string | undefined;
    let db: DatabaseSync | undefined;
    try {
      db = open(Database, path);
      check(db);
    } catch (error) {
      // Another indexer holding the file past the wait is not corruption: the file is left alone.
      if (isBusy(error)) {
        db?.close();
        throw new DeskpilotError(
          'TIMEOUT',
          `the documentation index at ${path} is busy (another indexer has held it for ${BUSY_WAIT_MS / 1000} s); try again`,
          {
            cause: error,
            isRetryable: true,
          },
        );
      }
      db?.close();
      // A corrupt or foreign file: keep it for a post-mortem, start again. Only time is lost.
      const aside = `${path}.corrupt-${Date.now()}`;
      if (existsSync(path)) renameSync(path, aside);
      for (const extra of ['-wal', '-shm']) rmSync(`${path}${extra}`, { force: true });
      recovered = `the index at ${path} could not be read (${(error as Error).message}); it was moved to ${aside} and is being rebuilt`;
      db = open(Database, path);
    }
    this.db = db;
    this.recovered = recovered;
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, source TEXT NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL, hash TEXT NOT NULL, skipped TEXT);
      CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5(title, section, text, path UNINDEXED, anchor UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE TABLE IF NOT EXISTS vectors (chunk INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL);
      CREATE INDEX IF NOT EXISTS files_by_source ON files (source);
    `);
    this.db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema', SCHEMA_VERSION);
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  meta(key: string): string | undefined {
    const row = this.statement('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.statement('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  fileRow(path: string): FileRow | undefined {
    const row = this.statement('SELECT * FROM files WHERE path = ?').get(path) as (Omit<FileRow, 'skipped'> & { skipped: string | null }) | undefined;
    return row === undefined ? undefined : { ...row, skipped: row.skipped ?? undefined };
  }

  filesOf(source: string): string[] {
    return (this.statement('SELECT path FROM files WHERE source = ?').all(source) as { path: string }[]).map((row) => row.path);
  }

  /**
   * Replaces a file's chunks (and their vectors) in one transaction, so a crash never leaves half
   * a file. `replace` false skips the delete for a file known to have none (a scan of the text table).
   */
  putFile(row: FileRow, chunks: Chunk[], replace = true): void {
    this.transaction(() => {
      if (replace) this.deleteChunks(row.path);
      this.statement('INSERT OR REPLACE INTO files (path, source, size, mtime, hash, skipped) VALUES (?, ?, ?, ?, ?, ?)').run(
        row.path,
        row.source,
        row.size,
        row.mtime,
        row.hash,
        row.skipped ?? null,
      );
      const insert = this.statement('INSERT INTO chunks (title, section, text, path, anchor) VALUES (?, ?, ?, ?, ?)');
      for (const chunk of chunks) insert.run(chunk.title, chunk.section, chunk.text, row.path, chunk.anchor);
    });
  }

  /** A file whose bytes did not change but whose time did: only the fingerprint moves. */
  touchFile(path: string, size: number, mtime: number): void {
    this.statement('UPDATE files SET size = ?, mtime = ? WHERE path = ?').run(size, mtime, path);
  }

  removeFile(path: string): void {
    this.transaction(() => {
      this.deleteChunks(path);
      this.statement('DELETE FROM files WHERE path = ?').run(path);
    });
  }

  private deleteChunks(path: string): void {
    this.statement('DELETE FROM vectors WHERE chunk IN (SELECT rowid FROM chunks WHERE path = ?)').run(path);
    this.statement('DELETE FROM chunks WHERE path = ?').run(path);
  }

  /**
   * BM25 over title, section and text, weighted so a match in a page title counts most and in
   * a heading next; ids, files and scores, best first (SQLite's bm25 is lower-is-better, so negated).
   */
  fullText(match: string, limit: number): { id: number; path: string; score: number }[] {
    return (
      this.statement(
        'SELECT rowid AS id, path, -bm25(chunks, 6.0, 3.0, 1.0) AS score FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks, 6.0, 3.0, 1.0) LIMIT ?',
      ).all(match, limit) as { id: number; path: string; score: number }[]
    ).map((row) => ({ id: Number(row.id), path: row.path, score: Number(row.score) }));
  }

  chunk(id: number): ChunkRow | undefined {
    const row = this.statement('SELECT rowid AS id, path, anchor, title, section, text FROM chunks WHERE rowid = ?').get(id) as ChunkRow | undefined;
    return row === undefined ? undefined : { ...row, id: Number(row.id) };
  }

  /** Chunks without a vector from `model`, oldest first, for the background embedder. */
  unembedded(model: string, limit: number): ChunkRow[] {
    return this.statement(
      'SELECT c.rowid AS id, c.path, c.anchor, c.title, c.section, c.text FROM chunks c LEFT JOIN vectors v ON v.chunk = c.rowid AND v.model = ? WHERE v.chunk IS NULL LIMIT ?',
    ).all(model, limit) as unknown as ChunkRow[];
  }

  putVectors(model: string, vectors: { id: number; vector: Float32Array }[]): void {
    this.transaction(() => {
      const insert = this.statement('INSERT OR REPLACE INTO vectors (chunk, model, vector) VALUES (?, ?, ?)');
      for (const { id, vector } of vectors) insert.run(id, model, new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
    });
  }

  /** Drops vectors of every other model (after a model change). */
  keepVectorsOf(model: string): void {
    this.statement('DELETE FROM vectors WHERE model != ?').run(model);
  }

  /** Every vector of `model`, with the file its chunk is from. */
  vectors(model: string): { id: number; path: string; vector: Float32Array }[] {
    return (
      this.statement('SELECT v.chunk, c.path, v.vector FROM vectors v JOIN chunks c ON c.rowid = v.chunk WHERE v.model = ?').all(model) as {
        chunk: number;
        path: string;
        vector: Uint8Array;
      }[]
    ).map((row) => ({
      id: Number(row.chunk),
      path: row.path,
      vector: new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)),
    }));
  }

  counts(): { files: number; skipped: number; chunks: number; vectors: number } {
    const one = (sql: string): number => Number((this.statement(sql).get() as { n: number }).n);
    return {
      files: one('SELECT count(*) AS n FROM files WHERE skipped IS NULL'),
      skipped: one('SELECT count(*) AS n FROM files WHERE skipped IS NOT NULL'),
      chunks: one('SELECT count(*) AS n FROM chunks'),
      vectors: one('SELECT count(*) AS n FROM vectors'),
    };
  }

  /** Characters of text stored, for the size ratio the bench reports. */
  textBytes(): number {
    return Number((this.statement('SELECT coalesce(sum(length(title) + length(section) + length(text)), 0) AS n FROM chunks').get() as { n: number }).n);
  }

  /** Folds the write-ahead log into the file, so its size on disk is the index's. */
  checkpoint(): void {
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  /** IMMEDIATE takes the write lock up front, so a second indexer waits its turn (busy_timeout) instead of failing mid-way. */
  transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }
}

/**
 * How long a statement waits for another connection's lock (a second `docs index`, the app and
 * the CLI at once) before it fails: the other holds it for one file's transaction at a time.
 */
export const BUSY_WAIT_MS = 10_000;

/** Opened with the busy wait set before anything else touches the file. */
function open(Database: typeof DatabaseSync, path: string): DatabaseSync {
  const db = new Database(path);
  db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
  return db;
}

/** SQLITE_BUSY or SQLITE_LOCKED: another connection has the file. */
export function isBusy(error: unknown): boolean {
  const { errcode, message } = error as { errcode?: number; message?: string };
  const primary = (errcode ?? 0) & 0xff;
  return primary === 5 || primary === 6 || /database is (locked|busy)|database table is locked/i.test(message ?? '');
}

/** Throws for a file that is not an index of ours: not SQLite, damaged, or another schema version. */
function check(db: DatabaseSync): void {
  const result = db.prepare('PRAGMA quick_check').get() as Record<string, unknown> | undefined;
  const verdict = result === undefined ? 'ok' : String(Object.values(result)[0]);
  if (verdict !== 'ok') throw new Error(`integrity check: ${verdict}`);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").all();
  if (tables.length === 0) return;
  const version = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined;
  if (version !== undefined && version.value !== SCHEMA_VERSION) throw new Error(`schema ${version.value}, this version reads ${SCHEMA_VERSION}`);
  db.prepare("SELECT count(*) FROM chunks WHERE chunks MATCH 'x'").get();
}
