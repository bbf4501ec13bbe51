/** Words too common to rank by; a question's own words carry the meaning. */
const STOPWORDS = new Set(
  'a an and are as at be been but by can could do does doing did for from get gets getting got had has have how i if in into is it its keep keeps me my no not of on or our should so some than that the their them then there these they this to too up use using was we what when where which while who why will with would you your'.split(
    ' ',
  ),
);

/** The words of a question, lower case, stopwords out (all of them kept if nothing else is left). */
export function queryWords(query: string): string[] {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 1 || /\d/.test(word));
  const kept = words.filter((word) => !STOPWORDS.has(word));
  return [...new Set(kept.length > 0 ? kept : words)];
}

/**
 * Words people say for what manuals name otherwise ("wifi" for wireless, "bigger" for larger).
 * General desktop vocabulary, not any one manual's: each word also finds the others in its group.
 */
const SYNONYMS: string[][] = [
  ['wifi', 'wireless', 'wlan'],
  ['internet', 'network', 'online', 'connection'],
  ['screen', 'display', 'monitor'],
  ['bigger', 'larger', 'increase', 'enlarge', 'size'],
  ['smaller', 'decrease', 'reduce', 'shrink'],
  ['delete', 'remove', 'erase', 'trash'],
  ['dropping', 'drops', 'disconnect', 'disconnecting', 'disconnected'],
  ['picture', 'photo', 'image', 'screenshot'],
  ['sound', 'audio', 'volume', 'speakers'],
  ['laptop', 'computer', 'notebook'],
  ['app', 'apps', 'application', 'applications', 'program', 'programs'],
  ['folder', 'directory'],
  ['start', 'launch', 'open', 'startup'],
  ['sleep', 'suspend', 'hibernate'],
  ['usb', 'stick', 'thumbdrive', 'drive'],
  ['wallpaper', 'background'],
  ['bright', 'brightness', 'dim'],
  ['mic', 'microphone'],
  ['webcam', 'camera'],
  ['password', 'passphrase'],
];

const SYNONYM_GROUPS = new Map(SYNONYMS.flatMap((group) => group.map((word) => [word, group] as const)));

/** The question's words and their synonyms, the question's own first. */
export function expandWords(words: string[]): string[] {
  return [...new Set([...words, ...words.flatMap((word) => SYNONYM_GROUPS.get(word) ?? [])])];
}

/** An FTS5 query matching any of the words, each quoted so no word is read as query syntax. */
export function ftsQuery(words: string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' OR ');
}

/** Reciprocal rank fusion (k = 60, as in Cormack et al.): ranks, not scores, so BM25 and cosine mix fairly. */
export function fuse(lists: number[][], k = 60): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const list of lists) list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    const x = a[index] as number;
    const y = b[index] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** The stretch of a chunk where the question's words gather most, cut at word boundaries. */
export function snippet(text: string, words: string[], length = 280): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const stems = words.map((word) => word.slice(0, Math.max(4, word.length - 3)));
  const lower = flat.toLowerCase();
  let best = 0;
  let bestHits = -1;
  for (let start = 0; start < flat.length - length / 2; start += 40) {
    const window = lower.slice(start, start + length);
    const hits = stems.reduce((count, stem) => count + (window.includes(stem) ? 1 : 0), 0);
    if (hits > bestHits) {
      bestHits = hits;
      best = start;
    }
  }
  const from = best === 0 ? 0 : flat.indexOf(' ', best) + 1;
  const cut = flat.slice(from, from + length);
  const end = cut.length < length ? cut : cut.slice(0, cut.lastIndexOf(' '));
  return `${from > 0 ? '…' : ''}${end}${from + end.length < flat.length ? '…' : ''}`;
}
