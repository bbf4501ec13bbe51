import { ID_LENGTH } from './ids';

/**
 * A token count close to what OpenAI-style BPE tokenizers (o200k_base) give for UI text,
 * without shipping a tokenizer: its tables are megabytes, and a budget only needs to be
 * close. Calibrated in token-estimate.test.ts against js-tiktoken on serialized trees.
 *
 * The text is cut into runs the way the tokenizer's pre-split does (letters, digits,
 * punctuation, whitespace), and each run is priced by its kind: a common word is one
 * token, a random letter-digit string (an id) about one per 1.4 characters, digits come in
 * groups of three, ASCII punctuation is about a token a character, and so is non-ASCII text.
 * A node id (ID_LENGTH lowercase letters) is no word: where a tree line puts one, first on
 * the line or in brackets, it is priced as o200k_base splits such ids, about three tokens.
 */
const RUN = /[\p{L}\p{M}\p{N}]+|\n[ \t]*|[ \t]+|[^\s\p{L}\p{M}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const ASCII_WORD = /^[A-Za-z0-9]+$/;
const ID_LIKE = new RegExp(`^[a-z]{${ID_LENGTH}}$`);
const ID_TOKENS = 3;

/** Whether the run at `index` sits where a tree line puts its id: first on a line, or after `[`. */
function inIdPlace(runs: readonly string[], index: number): boolean {
  const previous = runs[index - 1];
  return previous === undefined || previous.startsWith('\n') || previous === '[' || (/^[ \t]+$/.test(previous) && (runs[index - 2] ?? '\n').startsWith('\n'));
}

function wordCost(run: string): number {
  if (!ASCII_WORD.test(run)) {
    const chars = [...run].length;
    // Chinese, Japanese and Korean take about a token a character; accented Latin and Cyrillic words split in threes.
    return CJK.test(run) ? Math.max(1, Math.round(chars * 0.9)) : Math.max(1, Math.ceil(chars / 3));
  }
  const hasLetter = /[A-Za-z]/.test(run);
  const hasDigit = /[0-9]/.test(run);
  if (hasLetter && hasDigit) return Math.max(1, Math.round(run.length / 1.4));
  if (hasDigit) return Math.ceil(run.length / 3);
  // Common words, even long compounds' parts, are single tokens up to about eight letters.
  return run.length <= 8 ? 1 : Math.ceil(run.length / 6);
}

function punctuationCost(run: string): number {
  let cost = 0;
  for (const char of run) cost += char.charCodeAt(0) < 128 ? 0.8 : 1;
  return Math.max(1, Math.round(cost));
}

export function estimateTokens(text: string): number {
  let total = 0;
  const runs = text.match(RUN) ?? [];
  for (const [index, run] of runs.entries()) {
    const first = run.charCodeAt(0);
    if (first === 10) {
      // A newline is a token; indentation after it is one more, less the space the next token takes.
      total += run.length > 2 ? 2 : 1;
    } else if (first === 32 || first === 9) {
      // A single space joins the word after it, but not a number.
      const next = runs[index + 1];
      if (run.length > 1 || (next !== undefined && /^[0-9]/.test(next))) total += 1;
    } else if (/^[\p{L}\p{M}\p{N}]/u.test(run)) {
      total += ID_LIKE.test(run) && inIdPlace(runs, index) ? ID_TOKENS : wordCost(run);
    } else {
      // One mark right before a word, with no space in front, is part of the word's token: `/home`, `-final`.
      const previous = runs[index - 1];
      const joins = run.length === 1 && previous !== undefined && !/^\s/.test(previous) && /^\p{L}/u.test(runs[index + 1] ?? '');
      if (!joins) total += punctuationCost(run);
    }
  }
  return total;
}
