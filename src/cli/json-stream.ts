/**
 * JSON.stringify(value, null, 2)'s text in pieces, so `tree --json` of a 20,000-node page
 * goes out as it is made instead of as one string of tens of megabytes beside the tree.
 */
const CHUNK_CHARS = 64 * 1024;

function* pieces(value: unknown, indent: string): Generator<string> {
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    const inner = `${indent}  `;
    yield '[\n';
    for (let index = 0; index < value.length; index += 1) {
      yield inner;
      const item: unknown = value[index];
      // As JSON.stringify: a hole, undefined or a function in an array is null.
      yield* item === undefined || typeof item === 'function' || typeof item === 'symbol' ? ['null'] : pieces(item, inner);
      yield index < value.length - 1 ? ',\n' : '\n';
    }
    return yield `${indent}]`;
  }
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const entries = Object.entries(value).filter(([, field]) => field !== undefined && typeof field !== 'function' && typeof field !== 'symbol');
    if (entries.length === 0) return yield '{}';
    const inner = `${indent}  `;
    yield '{\n';
    for (let index = 0; index < entries.length; index += 1) {
      const [key, field] = entries[index] as [string, unknown];
      yield `${inner}${JSON.stringify(key)}: `;
      yield* pieces(field, inner);
      yield index < entries.length - 1 ? ',\n' : '\n';
    }
    return yield `${indent}}`;
  }
  yield JSON.stringify(value, null, 2) ?? 'null';
}

/** Writes `value` as indented JSON and a newline, in chunks of about 64 KB. */
export function writeJson(value: unknown, write: (text: string) => void): void {
  let buffer = '';
  for (const piece of pieces(value, '')) {
    buffer += piece;
    if (buffer.length >= CHUNK_CHARS) {
      write(buffer);
      buffer = '';
    }
  }
  write(`${buffer}\n`);
}
