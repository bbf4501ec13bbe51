/**
 * Keeps every tool result inside the server's character budget. A client hands a model
 * either the text content or the structured JSON, so each must fit on its own.
 */

export interface Fitted<T> {
  value: T;
  truncated: boolean;
}

/** Cuts text at a line end so that the text plus its note fits in maxChars; the note says how to get the rest. */
export function fitText(text: string, maxChars: number, hint: string): Fitted<string> {
  if (text.length <= maxChars) return { value: text, truncated: false };
  const note = `\n… output cut at ${maxChars} characters (of ${text.length}). ${hint}`;
  const room = Math.max(0, maxChars - note.length);
  const lineEnd = text.lastIndexOf('\n', room);
  const kept = text.slice(0, lineEnd > room / 2 ? lineEnd : room);
  return { value: `${kept}${note}`.slice(0, maxChars), truncated: true };
}

/**
 * Fits text that is also carried inside a structured result: the text alone fits, and so
 * does the JSON of `wrap(text)`, whose quoting makes it longer than the text.
 */
export function fitTextAndJson<T>(text: string, maxChars: number, hint: string, wrap: (text: string, truncated: boolean) => T): Fitted<T> & { text: string } {
  let budget = maxChars;
  for (;;) {
    const fitted = fitText(text, budget, hint);
    const value = wrap(fitted.value, fitted.truncated);
    const excess = JSON.stringify(value).length - maxChars;
    if (excess <= 0 || budget <= 1) return { value, text: fitted.value, truncated: fitted.truncated };
    budget = Math.max(1, budget - excess);
  }
}

const CUT_MARK = '…';
const SHORTEST_CUT = 40;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Site {
  length: number;
  cut: () => void;
}

/** Every string and array in a JSON value, with a way to shorten each in place. */
function sites(value: Json, into: { strings: Site[]; arrays: Site[] }): void {
  if (Array.isArray(value)) {
    into.arrays.push({ length: value.length, cut: () => value.splice(Math.max(1, Math.floor(value.length / 2))) });
    value.forEach((item, index) => {
      if (typeof item === 'string') into.strings.push({ length: item.length, cut: () => (value[index] = halve(item)) });
      else sites(item, into);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string') into.strings.push({ length: item.length, cut: () => (value[key] = halve(item)) });
      else sites(item, into);
    }
  }
}

function halve(text: string): string {
  return `${text.slice(0, Math.floor(text.length / 2))}${CUT_MARK}`;
}

/**
 * Shrinks a JSON-able value until its JSON fits in maxChars: the longest strings are halved
 * first (long names and values), then the longest arrays. Types stay as they were, so the
 * result still matches its schema. The input is not changed.
 *
 * Each round halves the longest strings until their halves make up the excess, so a round
 * (one walk, one JSON.stringify) cuts many strings, and rounds are about the log of the longest
 * one. Halving one string a round made this quadratic: 4,000 find matches with 100-character
 * names took 69 s to fit 20,000 characters. A value of keys and numbers alone cannot be cut
 * and comes back over the budget, marked truncated: a caller with a hard limit checks.
 */
export function fitJson<T>(input: T, maxChars: number): Fitted<T> {
  let size = JSON.stringify(input).length;
  if (size <= maxChars) return { value: input, truncated: false };
  const value = structuredClone(input) as Json;
  while (size > maxChars) {
    const found = { strings: [] as Site[], arrays: [] as Site[] };
    sites(value, found);
    if (!cutStrings(found.strings, size - maxChars)) {
      const array = found.arrays.filter((site) => site.length > 1).sort((a, b) => b.length - a.length)[0];
      if (array === undefined) break;
      array.cut();
    }
    size = JSON.stringify(value).length;
  }
  return { value: value as T, truncated: true };
}

/** Halves the longest strings, longest first, until what they lose covers `excess`; false when none is long enough to cut. */
function cutStrings(strings: Site[], excess: number): boolean {
  const long = strings.filter((site) => site.length > SHORTEST_CUT).sort((a, b) => b.length - a.length);
  let left = excess;
  for (const site of long) {
    if (left <= 0) break;
    site.cut();
    left -= Math.ceil(site.length / 2) - CUT_MARK.length;
  }
  return long.length > 0;
}
