/**
 * Text for a provider request with every lone surrogate (half of a UTF-16 pair) replaced by
 * U+FFFD. Cuts made by UTF-16 length (a tool result cut to its budget, a summary part, an
 * MCP server's result) can split an emoji, and macOS hands over app text as UTF-16 that may
 * hold one already. JSON.stringify writes a lone one as `\ud83d`, which strict JSON parsers
 * refuse (serde_json: "lone leading surrogate in hex escape"), so one cut emoji anywhere in
 * the conversation would fail every later request of it.
 */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wellFormedText(text: string): string {
  LONE.lastIndex = 0;
  return LONE.test(text) ? text.replace(LONE, '\uFFFD') : text;
}

/** The value with wellFormedText applied to every string in it; parts without one are the same objects. */
export function wellFormed<T>(value: T): T {
  if (typeof value === 'string') return wellFormedText(value) as T;
  if (Array.isArray(value)) {
    const mapped = value.map((item: unknown) => wellFormed(item));
    return (mapped.some((item, index) => item !== value[index]) ? mapped : value) as T;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const fixed = wellFormed(item);
      if (fixed !== item) changed = true;
      return [key, fixed] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as T;
  }
  return value;
}
