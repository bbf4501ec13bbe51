/**
 * JSON.stringify(value, null, 2)'s text in pieces, so `tree --json` of a 20,000-node page
 * goes out as it is made instead of as one string of tens of megabytes beside the tree.
 * Plain recursion into one buffer, not nested generators: each `yield*` level re-yields every
 * piece below it, which cost a second on a deep 20,000-node tree.
 */
const CHUNK_CHARS = 64 * 1024;

class Out {
  private buffer = '';

  constructor(private readonly write: (text: string) => void) {}

  add(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= CHUNK_CHARS) {
      this.write(this.buffer);
      this.buffer = '';
    }
  }

  end(): void {
    this.write(`${this.buffer}\n`);
  }
}

/** As JSON.stringify: these are left out of objects, and are null in arrays. */
function skipped(field: unknown): boolean {
  return field === undefined || typeof field === 'function' || typeof field === 'symbol';
}

function emit(value: unknown, indent: string, out: Out): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return out.add('[]');
    const inner = `${indent}  `;
    out.add('[\n');
    for (let index = 0; index < value.length; index += 1) {
      out.add(inner);
      const item: unknown = value[index];
      if (skipped(item)) out.add('null');
      else emit(item, inner, out);
      out.add(index < value.length - 1 ? ',\n' : '\n');
    }
    return out.add(`${indent}]`);
  }
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const keys = Object.keys(value).filter((key) => !skipped((value as Record<string, unknown>)[key]));
    if (keys.length === 0) return out.add('{}');
    const inner = `${indent}  `;
    out.add('{\n');
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      out.add(`${inner}${JSON.stringify(key)}: `);
      emit((value as Record<string, unknown>)[key], inner, out);
      out.add(index < keys.length - 1 ? ',\n' : '\n');
    }
    return out.add(`${indent}}`);
  }
  out.add(JSON.stringify(value, null, 2) ?? 'null');
}

/** Writes `value` as indented JSON and a newline, in chunks of about 64 KB. */
export function writeJson(value: unknown, write: (text: string) => void): void {
  const out = new Out(write);
  emit(value, '', out);
  out.end();
}
