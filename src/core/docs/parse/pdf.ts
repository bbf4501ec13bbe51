import type { DocSection, ParsedDoc } from '../types';
import type { ParseLimits } from './limits';
import { tidy } from './slug';

/** pdf.js's quietest level: its warnings ("Indexing all PDF objects") would land on the CLI's stderr. */
const ERRORS_ONLY = 0;

/**
 * A PDF's text through pdf.js (unpdf's build, no native code), one section per page, anchored
 * `page=N`. Pages are read one at a time, up to the page and character limits: unpdf's own
 * extractText asks for every page at once, which for a PDF of 75,000 pages is 75,000 pages in memory.
 */
export async function parsePdf(bytes: Uint8Array, fallbackTitle: string, limits: Pick<ParseLimits, 'pdfPages' | 'chars'>): Promise<ParsedDoc> {
  const { getDocumentProxy, getMeta } = await import('unpdf');
  const pdf = await getDocumentProxy(bytes, { verbosity: ERRORS_ONLY });
  try {
    const sections: DocSection[] = [];
    let chars = 0;
    const pages = Math.min(pdf.numPages, limits.pdfPages);
    for (let number = 1; number <= pages && chars < limits.chars; number += 1) {
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
