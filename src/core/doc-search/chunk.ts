import type { DocSection } from './types';

/** Chunks stay near this size: a snippet's worth for the model, and small enough that one topic dominates. */
const TARGET_CHARS = 1200;

export interface Chunk extends DocSection {
  title: string;
}

/** Sections longer than the target are cut at paragraph, then sentence, boundaries; each piece keeps its section. */
export function chunkSections(title: string, sections: DocSection[]): Chunk[] {
  return sections.flatMap((section) => pieces(section.text).map((text) => ({ ...section, title, text })));
}

function pieces(text: string): string[] {
  if (text.length <= TARGET_CHARS) return [text];
  const units = text.split(/\n\s*\n/).flatMap((paragraph) => (paragraph.length <= TARGET_CHARS ? [paragraph] : paragraph.split(/(?<=[.!?])\s+/)));
  const out: string[] = [];
  let current = '';
  for (const unit of units) {
    if (current !== '' && current.length + unit.length + 2 > TARGET_CHARS) {
      out.push(current);
      current = '';
    }
    current = current === '' ? unit.slice(0, TARGET_CHARS * 2) : `${current}\n\n${unit}`;
  }
  if (current !== '') out.push(current);
  return out;
}
