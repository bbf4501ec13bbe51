import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DocsIndex, type DocsStatus, type IndexProgress, type IndexReport } from './docs-index';
import type { EmbeddingsEndpoint } from './embeddings';
import { appSources, folderSource, whereLooked, type AppIdentity, type Source, type SourceRoots } from './sources';
import type { SearchResult } from './types';

export interface DocsSettings {
  /** Folders of the user's own documents. */
  folders: string[];
  /** Per-source switches; everything is on unless turned off. */
  appHelp?: boolean;
  manPages?: boolean;
  userFolders?: boolean;
}

export interface DocsServiceOptions {
  /** The folder the index file lives in (the app's data folder). */
  dataDir: string;
  settings: () => DocsSettings;
  env: Record<string, string | undefined>;
  endpoint?: () => EmbeddingsEndpoint | undefined;
  roots?: SourceRoots;
  /** Tells the user about a notice (a corrupt index rebuilt) or a background failure. */
  notify?: (text: string) => void;
}

export interface DocsQuery {
  topN?: number;
  app?: AppIdentity;
  /** Folders for this query on top of the settings' (the CLI's --folder). */
  folders?: string[];
  signal?: AbortSignal;
  onProgress?: (progress: IndexProgress) => void;
}

export const INDEX_FILE = 'docs-index.sqlite';

/** What a query covered: the sources' keys, and for an app with no help of its own, where it was looked for. */
export interface Coverage {
  sources: string[];
  /** Set when an app was asked for and none of its help or man pages were found: where they were looked for. */
  noAppHelp?: { app: string; looked: string };
}

/**
 * The documentation search a program offers: it brings the index up to date for the sources a
 * query needs (only stat calls when nothing changed), embeds in the background where the
 * provider can, and searches. One per program; opened on first use.
 */
export class DocsService {
  private index: DocsIndex | undefined;
  private background: AbortController | undefined;

  constructor(private readonly options: DocsServiceOptions) {}

  get file(): string {
    return path.join(this.options.dataDir, INDEX_FILE);
  }

  private open(): DocsIndex {
    if (this.index === undefined) {
      mkdirSync(this.options.dataDir, { recursive: true });
      this.index = new DocsIndex(this.file, this.options.endpoint);
    }
    return this.index;
  }

  /** The sources a query or an index run covers, per the settings' switches. */
  sources(query: Pick<DocsQuery, 'app' | 'folders'>): Source[] {
    const settings = this.options.settings();
    const sources: Source[] = [];
    if (query.app !== undefined)
      for (const source of appSources(query.app, this.options.env, this.options.roots)) {
        if (source.kind === 'app-help' && settings.appHelp === false) continue;
        if (source.kind === 'man' && settings.manPages === false) continue;
        sources.push(source);
      }
    const folders = [...(settings.userFolders === false ? [] : settings.folders), ...(query.folders ?? [])];
    for (const folder of new Set(folders)) sources.push(folderSource(folder));
    return sources;
  }

  /** Brings the sources a query covers up to date; the report says which they were. */
  async update(query: Pick<DocsQuery, 'app' | 'folders' | 'signal' | 'onProgress'>): Promise<IndexReport & { sources: Source[] } & Omit<Coverage, 'sources'>> {
    const sources = this.sources(query);
    const report = await this.open().update(sources, query.onProgress, query.signal);
    if (report.notice !== undefined) this.options.notify?.(report.notice);
    this.embedInBackground();
    return { ...report, sources, ...this.appCoverage(query.app, sources) };
  }

  async search(text: string, query: DocsQuery = {}): Promise<SearchResult & Coverage & { cut: IndexReport['cut'] }> {
    const { sources, noAppHelp, cut } = await this.update(query);
    const files = new Set(sources.flatMap((source) => source.files));
    const result = await this.open().search(text, { topN: query.topN ?? 5, files, ...(query.signal === undefined ? {} : { signal: query.signal }) });
    return { ...result, sources: sources.map((source) => source.key), cut, ...(noAppHelp === undefined ? {} : { noAppHelp }) };
  }

  private appCoverage(app: AppIdentity | undefined, sources: Source[]): Omit<Coverage, 'sources'> {
    if (app === undefined || sources.some((source) => source.kind !== 'folder')) return {};
    return { noAppHelp: { app: app.name, looked: whereLooked(app, this.options.env, this.options.roots) } };
  }

  /** Starts embedding whatever is not yet embedded; never awaited by a search, never throws into one. */
  private embedInBackground(): void {
    if (this.options.endpoint?.() === undefined || this.background !== undefined) return;
    const controller = new AbortController();
    this.background = controller;
    this.open()
      .embedPending(controller.signal)
      .catch((error: unknown) => this.options.notify?.(`documentation embeddings: ${(error as Error).message}`))
      .finally(() => {
        if (this.background === controller) this.background = undefined;
      });
  }

  status(): DocsStatus {
    return this.open().status();
  }

  /** Deletes the index; the next query or update reads everything again. */
  rebuild(): void {
    this.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${this.file}${suffix}`, { force: true });
  }

  close(): void {
    this.background?.abort();
    this.background = undefined;
    this.index?.close();
    this.index = undefined;
  }
}
