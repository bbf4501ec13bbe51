import type { ParsedDoc } from '../types';
import { tidy } from './slug';

/** A PDF's text through pdf.js (unpdf's build, no native code), one section per page, anchored `page=N`. */
export async function parsePdf(bytes: Uint8Array, fallbackTitle: string): Promise<ParsedDoc> {
  const { extractText, getDocumentProxy, getMeta } = await import('unpdf');
  const pdf = await getDocumentProxy(bytes);
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const meta = await getMeta(pdf).catch(() => undefined);
    const info = meta?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : fallbackTitle;
    return {
      title,
      sections: text
        .map((page, index) => ({ anchor: `page=${index + 1}`, section: `Page ${index + 1}`, text: tidy(page) }))
        .filter((section) => section.text !== ''),
    };
  } finally {
    await pdf.cleanup();
  }
}
