import { constants, inflateSync } from 'node:zlib';
import type { DocSection, ParsedDoc } from '../types';
import { sizeText, type ParseLimits } from './limits';
import { tidy } from './slug';

/** A PDF not to open, and why; the caller turns it into a skip. */
export class PdfRefused extends Error {}

/** How far before the `stream` keyword its dictionary is looked for. */
const DICTIONARY_WINDOW = 512;

/**
 * What pdf.js would pay for before it is asked: the page count it claims (pdf.js's open cost
 * grows with the page tree) and how far each compressed stream it would decode expands. A
 * 300 KB PDF can hold a page that inflates to 300 MB; pdf.js would hold all of it in memory
 * outside the worker's heap limit. Image streams are left alone: text extraction never decodes them.
 */
export function checkPdf(bytes: Uint8Array, limits: Pick<ParseLimits, 'pdfPagesMax' | 'pdfStreamBytes'>): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let pages = 0;
  for (const match of text.matchAll(/\/Count\s+(\d{1,9})/g)) pages = Math.max(pages, Number(match[1]));
  if (pages > limits.pdfPagesMax)
    throw new PdfRefused(`has ${pages.toLocaleString('en')} pages; a PDF of more than ${limits.pdfPagesMax.toLocaleString('en')} is not read`);
  const keyword = /stream\r?\n/g;
  for (let match = keyword.exec(text); match !== null; match = keyword.exec(text)) {
    if (text.startsWith('end', match.index - 3)) continue;
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    keyword.lastIndex = end + 'endstream'.length;
    const dictionary = text.slice(Math.max(0, match.index - DICTIONARY_WINDOW), match.index);
    const opened = dictionary.lastIndexOf('<<');
    const own = opened < 0 ? dictionary : dictionary.slice(opened);
    if (!/\/FlateDecode/.test(own) || /\/Subtype\s*\/Image/.test(own)) continue;
    try {
      inflateSync(bytes.subarray(start, end), { maxOutputLength: limits.pdfStreamBytes, finishFlush: constants.Z_SYNC_FLUSH });
    } catch (error) {
      // A damaged stream is pdf.js's to judge; only one that expands too far is refused here.
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw new PdfRefused(`has a compressed stream that expands to more than ${sizeText(limits.pdfStreamBytes)}`);
    }
  }
}

/** pdf.js's quietest level: its warnings ("Indexing all PDF objects") would land on the CLI's stderr. */
const ERRORS_ONLY = 0;

/**
 * A PDF's text through pdf.js (unpdf's build, no native code), one section per page, anchored
 * `page=N`. Pages are read one at a time, up to the page, character and time limits: unpdf's own
 * extractText asks for every page at once, which for a PDF of 75,000 pages is 75,000 pages in memory.
 */
export async function parsePdf(bytes: Uint8Array, fallbackTitle: string, limits: ParseLimits): Promise<ParsedDoc> {
  checkPdf(bytes, limits);
  const { getDocumentProxy, getMeta } = await import('unpdf');
  const pdf = await getDocumentProxy(bytes, { verbosity: ERRORS_ONLY });
  try {
    const sections: DocSection[] = [];
    let chars = 0;
    const pages = Math.min(pdf.numPages, limits.pdfPages);
    const until = performance.now() + limits.pdfReadMs;
    for (let number = 1; number <= pages && chars < limits.chars && performance.now() < until; number += 1) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      page.cleanup();
      const raw = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      const text = tidy(raw).slice(0, limits.chars - chars);
      chars += text.length;
      if (text !== '') sections.push({ anchor: `page=${number}`, section: `Page ${number}`, text });
    }
    const meta = await getMeta(pdf).catch(() => undefined);
    const info = meta?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim().slice(0, 300) : fallbackTitle;
    return { title, sections };
  } finally {
    await pdf.cleanup();
    // Typed only on the loading task in unpdf's types, though pdf.js has it: frees the document in a reused worker.
    await (pdf as unknown as { destroy?: () => Promise<void> }).destroy?.();
  }
}
