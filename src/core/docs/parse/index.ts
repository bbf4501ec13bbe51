import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ParsedDoc } from '../types';
import { parseDocBook, parseHtml, parseMallard } from './markup';
import { parsePdf } from './pdf';
import { parseMan, parseMarkdown, parseText } from './plain';

/** A file not indexed, and why: the index report lists these. */
export class Skipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'Skipped';
  }
}

type Format = 'mallard' | 'docbook' | 'html' | 'markdown' | 'text' | 'man' | 'pdf';

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

/** Larger files are skipped: a manual is rarely this big, a log or a data dump often is. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Parses one file's bytes; throws Skipped with a reason a user can act on. */
export async function parseFile(file: string, bytes: Buffer): Promise<ParsedDoc> {
  const format = formatOf(file);
  if (format === undefined) throw new Skipped('not a format the index reads');
  if (bytes.length > MAX_FILE_BYTES) throw new Skipped(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  const fallbackTitle = path
    .basename(file)
    .replace(/\.gz$/, '')
    .replace(/\.[^.]+$/, '');
  let data = bytes;
  if (file.endsWith('.gz')) {
    try {
      data = gunzipSync(bytes);
    } catch {
      throw new Skipped('a .gz file that does not decompress');
    }
  }
  if (format === 'pdf') {
    if (data.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Skipped('named .pdf but not a PDF');
    try {
      return await parsePdf(new Uint8Array(data), fallbackTitle);
    } catch (error) {
      throw new Skipped(`the PDF could not be read: ${(error as Error).message}`);
    }
  }
  if (data.subarray(0, 8192).includes(0)) throw new Skipped('binary content in a text format');
  const text = data.toString('utf8');
  if (format === 'mallard') return parseMallard(text, fallbackTitle);
  if (format === 'docbook') return parseDocBook(text, fallbackTitle);
  if (format === 'html') return parseHtml(text, fallbackTitle);
  if (format === 'markdown') return parseMarkdown(text, fallbackTitle);
  if (format === 'man') return parseMan(text, fallbackTitle);
  return parseText(text, fallbackTitle);
}
