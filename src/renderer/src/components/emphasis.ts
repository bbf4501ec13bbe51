/** Stands in for the bold part of a translated sentence, so it can be bold wherever the language puts it. */
export const MARK = '\u{E000}';

/** A sentence split around its bold part: "Click **Delete** in gedit?". */
export interface Emphasis {
  before: string;
  strong: string;
  after: string;
}

/** Data (app names, values from the model) with any MARK taken out, so only ours splits the sentence. */
export function plain(text: string): string {
  return text.replaceAll(MARK, '');
}

/** `sentence` is the translation with MARK where `strong` goes. */
export function emphasize(sentence: string, strong: string): Emphasis {
  const [before = '', ...rest] = sentence.split(MARK);
  return { before, strong: plain(strong), after: rest.join('') };
}

/** One line, at most `max` characters, an ellipsis where it was cut. */
export function cut(value: string, max: number): string {
  const chars = [...value.replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** A value as the user gave it, quoted and cut: “Ada”. */
export function quoted(value: string, max: number): string {
  return `“${cut(plain(value), max)}”`;
}
