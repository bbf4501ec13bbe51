/**
 * D-Bus signatures (the type strings of the D-Bus specification) as trees of complete types,
 * each signature parsed once, and what the reader and writer share of the types: their codes,
 * their alignments, the nesting bound and the codec's typed error.
 */

/** One complete type of a signature: its type code and, for a, ( and {, what it holds. */
export interface TypeNode {
  code: string;
  /** The code's character code: the reader and writer switch on a number, a jump rather than a chain of string compares. */
  tag: number;
  children: TypeNode[];
}

/** A type node; `tag` follows from `code`. */
export function typeNode(code: string, children: TypeNode[] = []): TypeNode {
  return { code, tag: code.charCodeAt(0), children };
}

/** The type codes by their character code (TypeNode.tag). */
export const TAG = {
  byte: 0x79, // y
  boolean: 0x62, // b
  int16: 0x6e, // n
  uint16: 0x71, // q
  int32: 0x69, // i
  uint32: 0x75, // u
  handle: 0x68, // h
  int64: 0x78, // x
  uint64: 0x74, // t
  double: 0x64, // d
  string: 0x73, // s
  path: 0x6f, // o
  signature: 0x67, // g
  variant: 0x76, // v
  array: 0x61, // a
  struct: 0x28, // (
  dictEntry: 0x7b, // {
} as const;

export class DbusCodecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DbusCodecError';
  }
}

/** Where each type starts on the wire: at a multiple of this many bytes from the message's start. */
export const ALIGN: Record<string, number> = { y: 1, g: 1, v: 1, n: 2, q: 2, b: 4, i: 4, u: 4, s: 4, o: 4, a: 4, h: 4, x: 8, t: 8, d: 8, '(': 8, '{': 8 };
const BASIC = new Set(['y', 'b', 'n', 'q', 'i', 'u', 'x', 't', 'd', 's', 'o', 'g', 'h']);
/** The spec's limit on a signature's length; it also bounds the parser's work on a hostile one. */
const MAX_SIGNATURE = 255;
/** The spec's nesting limit (and, for variants, the reader's bound on a hostile message's depth). */
export const MAX_DEPTH = 64;

const parsed = new Map<string, TypeNode[]>();

/** A signature as its complete types, parsed once per distinct signature. */
export function parseSignature(signature: string): TypeNode[] {
  const known = parsed.get(signature);
  if (known !== undefined) return known;
  if (signature.length > MAX_SIGNATURE) throw new DbusCodecError(`signature too long (${signature.length})`);
  let at = 0;
  const one = (depth: number): TypeNode => {
    if (depth > MAX_DEPTH) throw new DbusCodecError(`signature nested too deep: ${signature}`);
    const code = signature[at++];
    if (code === undefined) throw new DbusCodecError(`signature ends early: ${signature}`);
    if (code === 'a') return typeNode(code, [one(depth + 1)]);
    if (code === '(' || code === '{') {
      const close = code === '(' ? ')' : '}';
      const children: TypeNode[] = [];
      while (signature[at] !== close) {
        if (at >= signature.length) throw new DbusCodecError(`unclosed ${code} in ${signature}`);
        children.push(one(depth + 1));
      }
      at += 1;
      if (children.length === 0 || (code === '{' && children.length !== 2)) throw new DbusCodecError(`bad ${code} in ${signature}`);
      return typeNode(code, children);
    }
    if (code === 'v' || BASIC.has(code)) return typeNode(code);
    throw new DbusCodecError(`unknown type ${code} in ${signature}`);
  };
  const types: TypeNode[] = [];
  while (at < signature.length) types.push(one(0));
  // Hostile peers could send endless distinct signatures: the cache stays bounded.
  if (parsed.size > 4096) parsed.clear();
  parsed.set(signature, types);
  return types;
}
