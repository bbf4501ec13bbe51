/**
 * Which files the index reads, and the error for one it does not. Apart from the parsers (index.ts)
 * so the index and its folder walk, which parse in a worker, do not load every parser (htmlparser2
 * and its entity tables) with them: every CLI command and the MCP server load the index through
 * the runtime.
 */
import path from 'node:path';

/** A file not indexed, and why: the index report lists these. */
export class Skipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'Skipped';
  }
}

export type Format = 'mallard' | 'docbook' | 'html' | 'markdown' | 'text' | 'man' | 'pdf';

const BY_EXTENSION: Record<string, Format> = {
  '.page': 'mallard',
  '.xml': 'docbook',
  '.docbook': 'docbook',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.rst': 'text',
  '.pdf': 'pdf',
};

/** What the indexer reads; anything else in a folder is passed over without a word. */
export function formatOf(file: string): Format | undefined {
  const name = path.basename(file).toLowerCase().replace(/\.gz$/, '');
  if (/\.[1-9][a-z]*$/.test(name) && file.includes(`${path.sep}man`)) return 'man';
  return BY_EXTENSION[path.extname(name)];
}
