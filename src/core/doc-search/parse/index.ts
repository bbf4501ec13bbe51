import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ParsedDoc } from '../types';
import { parseDocBook, parseHtml, parseMallard } from './markup';
import { exceedsDepth } from './depth';
import { DEFAULT_PARSE_LIMITS, sizeText, type ParseLimits } from './limits';
import { parsePdf, PdfRefused } from './pdf';
import { parseMan, parseMarkdown, parseText } from './plain';
import { formatOf, Skipped, type Format } from './format';

export { formatOf, Skipped };

/** Larger files are skipped: a manual is rarely this big, a log or a data dump often is. */
export const MAX_FILE_BYTES = DEFAULT_PARSE_LIMITS.fileBytes;

/**
 * Parses one file's bytes; throws Skipped with a reason a user can act on. Every step is
 * bounded by `limits`; time and memory are bounded by the worker this runs in (parse-worker.ts).
 */
export async function parseFile(file: string, bytes: Buffer, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<ParsedDoc> {
  const format = formatOf(file);
  if (format === undefined) throw new Skipped('not a format the index reads');
  if (bytes.length > limits.fileBytes) throw new Skipped(`larger than ${sizeText(limits.fileBytes)}`);
  const fallbackTitle = path
    .basename(file)
    .replace(/\.gz$/, '')
    .replace(/\.[^.]+$/, '');
  const data = file.endsWith('.gz') ? gunzip(bytes, limits.textBytes) : bytes;
  return capChars(await parseData(format, data, fallbackTitle, limits), limits.chars);
}

/** Expands a .gz, stopping as soon as the output passes the limit: a bomb costs the limit, not its size. */
function gunzip(bytes: Buffer, limit: number): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Skipped(`expands to more than ${sizeText(limit)} (a .gz that big is not a manual)`);
    throw new Skipped('a .gz file that does not decompress');
  }
}

async function parseData(format: Format, data: Buffer, fallbackTitle: string, limits: ParseLimits): Promise<ParsedDoc> {
  if (format === 'pdf') {
    if (data.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Skipped('named .pdf but not a PDF');
    try {
      return await parsePdf(new Uint8Array(data), fallbackTitle, limits);
    } catch (error) {
      if (error instanceof PdfRefused) throw new Skipped(error.message);
      throw new Skipped(`the PDF could not be read: ${(error as Error).message.slice(0, 200)}`);
    }
  }
  if (data.subarray(0, 8192).includes(0)) throw new Skipped('binary content in a text format');
  const text = data.toString('utf8');
  if (format === 'mallard' || format === 'docbook' || format === 'html') {
    if (data.length > limits.markupBytes) throw new Skipped(`markup larger than ${sizeText(limits.markupBytes)}`);
    if (exceedsDepth(text, limits.depth, format !== 'html')) throw new Skipped(`elements nested more than ${limits.depth} deep`);
    if (format === 'mallard') return parseMallard(text, fallbackTitle);
    if (format === 'docbook') return parseDocBook(text, fallbackTitle);
    return parseHtml(text, fallbackTitle);
  }
  if (format === 'markdown') return parseMarkdown(text, fallbackTitle);
  if (format === 'man') return parseMan(text, fallbackTitle);
  return parseText(text, fallbackTitle);
}

/** The first `limit` characters of a document's sections; the rest is left out of the index. */
function capChars(doc: ParsedDoc, limit: number): ParsedDoc {
  let left = limit;
  const sections = [];
  for (const section of doc.sections) {
    if (left <= 0) break;
    const text = section.text.slice(0, left);
    left -= text.length;
    sections.push(text === section.text ? section : { ...section, text });
  }
  return { title: doc.title.slice(0, 300), sections };
}
