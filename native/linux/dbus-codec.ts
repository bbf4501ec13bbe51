/**
 * The D-Bus wire format (marshalling of the D-Bus specification), for the calls a tree read
 * makes by the thousand. dbus-next spent more CPU per call than the app answering it (its
 * generic marshaller allocates several objects per value); this codec parses each signature
 * once and reads and writes buffers directly. Values come back in dbus-next's shapes, which
 * callers already use: numbers, strings, booleans, BigInt (x, t), Buffer (ay), arrays (arrays
 * and structs), plain objects (dictionaries) and Variant (v).
 */

/** A value of type v: its signature and the value. */
export class Variant {
  constructor(
    readonly signature: string,
    readonly value: unknown,
  ) {}
}

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
const TAG = {
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

const ALIGN: Record<string, number> = { y: 1, g: 1, v: 1, n: 2, q: 2, b: 4, i: 4, u: 4, s: 4, o: 4, a: 4, h: 4, x: 8, t: 8, d: 8, '(': 8, '{': 8 };
/** Bytes of the fixed-size basic types, which skip() steps over by their size. */
const FIXED_SIZE: Record<string, number | undefined> = { b: 4, n: 2, q: 2, i: 4, u: 4, h: 4, x: 8, t: 8, d: 8 };
const VARIANT_TYPE = typeNode('v');
const BASIC = new Set(['y', 'b', 'n', 'q', 'i', 'u', 'x', 't', 'd', 's', 'o', 'g', 'h']);
/** The spec's limit on a signature's length; it also bounds the parser's work on a hostile one. */
const MAX_SIGNATURE = 255;
const MAX_DEPTH = 64;

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

/** Strings up to this many bytes are read in JavaScript (see shortText). */
const SHORT_TEXT = 24;
/** Short ASCII strings by their bytes: a reply names the same bus, signature and member thousands of times. */
const interned = new Map<number, string>();
const MAX_INTERNED = 4096;

/**
 * A short string of a message. Most are ASCII (bus names, paths, members, roles' names): read
 * byte by byte, which costs less than a call into Buffer's decoder; up to 6 bytes, one string per
 * distinct value (its bytes are its key). Anything else goes through Buffer's UTF-8 decoder.
 */
function shortText(buffer: Buffer, at: number, length: number): string {
  let key = length;
  for (let index = 0; index < length; index += 1) {
    const code = buffer[at + index] as number;
    if (code >= 0x80) return buffer.toString('utf8', at, at + length);
    key = key * 128 + code;
  }
  if (length <= 6) {
    const known = interned.get(key);
    if (known !== undefined) return known;
  }
  let value = '';
  for (let index = 0; index < length; index += 1) value += String.fromCharCode(buffer[at + index] as number);
  if (length <= 6) {
    if (interned.size >= MAX_INTERNED) interned.clear();
    interned.set(key, value);
  }
  return value;
}

/** A longer string: ASCII (an object path) as Latin-1, which V8 takes as it is; the rest decoded as UTF-8. */
function longText(buffer: Buffer, at: number, length: number): string {
  for (let index = at; index < at + length; index += 1) if ((buffer[index] as number) >= 0x80) return buffer.toString('utf8', at, at + length);
  return buffer.toString('latin1', at, at + length);
}

function cannotWrite(type: TypeNode, value: unknown): never {
  throw new DbusCodecError(`cannot write ${typeof value} as ${type.code}`);
}

/**
 * Writes values into a growing buffer. Alignment counts from `base`, the start of the message
 * being written, so one writer can hold a batch of messages back to back (dbus-socket.ts sends
 * a turn's calls in one write, with no buffer made per message).
 */
export class Writer {
  buffer: Buffer;
  at = 0;
  /** Where the message being written starts: the wire's alignment counts from there. */
  base = 0;

  constructor(size = 256) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
  }

  align(to: number): void {
    const pad = (to - ((this.at - this.base) % to)) % to;
    if (pad === 0) return;
    this.room(pad);
    // At most 7 bytes: a loop, where Buffer.fill's argument checks cost more than the bytes.
    for (let index = 0; index < pad; index += 1) this.buffer[this.at++] = 0;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.at++] = value & 0xff;
  }

  /** Raw bytes, copied as they are (an encoded part of a message). */
  bytes(source: Uint8Array): void {
    this.room(source.length);
    this.buffer.set(source, this.at);
    this.at += source.length;
  }

  uint32(value: number): void {
    this.align(4);
    this.room(4);
    this.buffer.writeUInt32LE(value >>> 0, this.at);
    this.at += 4;
  }

  private text(value: string, lengthBytes: 1 | 4): void {
    // Bus names, paths, interfaces and members are ASCII: written byte by byte, with no call into
    // Buffer's UTF-8 encoder (Buffer.byteLength and write cost more than the bytes of a short string).
    const length = value.length;
    if (lengthBytes === 1) this.byte(length);
    else this.uint32(length);
    this.room(length + 1);
    const start = this.at;
    let index = 0;
    for (; index < length; index += 1) {
      const code = value.charCodeAt(index);
      if (code >= 0x80) break;
      this.buffer[start + index] = code;
    }
    if (index === length) {
      this.at = start + length;
      this.buffer[this.at++] = 0;
      return;
    }
    // Not ASCII: the length said above counted UTF-16 units; written again with the byte count.
    this.at = start - lengthBytes;
    const bytes = Buffer.byteLength(value);
    if (lengthBytes === 1) this.buffer[this.at++] = bytes & 0xff;
    else {
      this.buffer.writeUInt32LE(bytes, this.at);
      this.at += 4;
    }
    this.room(bytes + 1);
    this.buffer.write(value, this.at, 'utf8');
    this.at += bytes;
    this.buffer[this.at++] = 0;
  }

  write(type: TypeNode, value: unknown): void {
    // No closure here: this runs for every value of every call.
    const fail = cannotWrite;
    switch (type.tag) {
      case TAG.byte:
        return this.byte(Number(value));
      case TAG.boolean:
        return this.uint32(value === true ? 1 : 0);
      case TAG.int16:
      case TAG.uint16:
        this.align(2);
        this.room(2);
        if (type.tag === TAG.int16) this.buffer.writeInt16LE(Number(value), this.at);
        else this.buffer.writeUInt16LE(Number(value), this.at);
        this.at += 2;
        return;
      case TAG.int32:
        this.align(4);
        this.room(4);
        this.buffer.writeInt32LE(Number(value), this.at);
        this.at += 4;
        return;
      case TAG.uint32:
      case TAG.handle:
        return this.uint32(Number(value));
      case TAG.int64:
      case TAG.uint64:
        this.align(8);
        this.room(8);
        if (type.tag === TAG.int64) this.buffer.writeBigInt64LE(BigInt(value as number), this.at);
        else this.buffer.writeBigUInt64LE(BigInt(value as number), this.at);
        this.at += 8;
        return;
      case TAG.double:
        this.align(8);
        this.room(8);
        this.buffer.writeDoubleLE(Number(value), this.at);
        this.at += 8;
        return;
      case TAG.string:
      case TAG.path:
        return typeof value === 'string' ? this.text(value, 4) : fail(type, value);
      case TAG.signature:
        return typeof value === 'string' ? this.text(value, 1) : fail(type, value);
      case TAG.variant: {
        if (!(value instanceof Variant)) return fail(type, value);
        const inner = parseSignature(value.signature);
        if (inner.length !== 1) throw new DbusCodecError(`a variant holds one type, not ${value.signature}`);
        this.text(value.signature, 1);
        return this.write(inner[0] as TypeNode, value.value);
      }
      case TAG.struct:
      case TAG.dictEntry: {
        if (!Array.isArray(value) || value.length !== type.children.length) return fail(type, value);
        this.align(8);
        // A loop, not forEach: no closure per struct of every call.
        for (let index = 0; index < value.length; index += 1) this.write(type.children[index] as TypeNode, value[index]);
        return;
      }
      case TAG.array:
        return this.array(type.children[0] as TypeNode, value);
      default:
        return fail(type, value);
    }
  }

  private array(element: TypeNode, value: unknown): void {
    this.uint32(0);
    const lengthAt = this.at - 4;
    this.align(ALIGN[element.code] ?? 1);
    const start = this.at;
    if (element.code === 'y' && Buffer.isBuffer(value)) {
      this.room(value.length);
      value.copy(this.buffer, this.at);
      this.at += value.length;
    } else if (element.code === '{') {
      if (value === null || typeof value !== 'object') throw new DbusCodecError('a dictionary is written from an object');
      const [keyType] = element.children as [TypeNode, TypeNode];
      const numericKey = keyType.code !== 's' && keyType.code !== 'o' && keyType.code !== 'g';
      for (const [key, entry] of Object.entries(value)) this.write(element, [numericKey ? Number(key) : key, entry]);
    } else {
      if (!Array.isArray(value)) throw new DbusCodecError(`an array is written from an array, not ${typeof value}`);
      for (const entry of value) this.write(element, entry);
    }
    this.buffer.writeUInt32LE(this.at - start, lengthAt);
  }
}

/**
 * Reads values from one whole message. Alignment counts from `base`, where the message starts in
 * `buffer` (the socket's read buffer holds many messages: none is copied out to be read).
 */
export class Reader {
  at: number;
  /** Variants open around the value being read: a hostile message nests them until the stack runs out. */
  private variants = 0;

  constructor(
    readonly buffer: Buffer,
    private readonly littleEndian: boolean,
    private readonly base = 0,
    /** Where the message ends: nothing past it is read. */
    readonly end = buffer.length,
  ) {
    this.at = base;
  }

  align(to: number): void {
    this.at += (to - ((this.at - this.base) % to)) % to;
  }

  need(bytes: number): void {
    if (this.at + bytes > this.end) throw new DbusCodecError('message ends early');
  }

  byte(): number {
    this.need(1);
    return this.buffer[this.at++] as number;
  }

  uint32(): number {
    this.align(4);
    this.need(4);
    const value = this.littleEndian ? this.buffer.readUInt32LE(this.at) : this.buffer.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }

  private text(length: number): string {
    this.need(length + 1);
    const value = length <= SHORT_TEXT ? shortText(this.buffer, this.at, length) : longText(this.buffer, this.at, length);
    this.at += length + 1;
    return value;
  }

  /** Steps over a string, a path or a signature without making it (a reply's sender and destination). */
  skipText(lengthBytes: 1 | 4): void {
    const length = lengthBytes === 1 ? this.byte() : this.uint32();
    this.need(length + 1);
    this.at += length + 1;
  }

  read(type: TypeNode): unknown {
    const le = this.littleEndian;
    switch (type.tag) {
      case TAG.byte:
        return this.byte();
      case TAG.boolean:
        return this.uint32() !== 0;
      case TAG.int16:
      case TAG.uint16: {
        this.align(2);
        this.need(2);
        const value =
          type.tag === TAG.int16
            ? le
              ? this.buffer.readInt16LE(this.at)
              : this.buffer.readInt16BE(this.at)
            : le
              ? this.buffer.readUInt16LE(this.at)
              : this.buffer.readUInt16BE(this.at);
        this.at += 2;
        return value;
      }
      case TAG.int32: {
        this.align(4);
        this.need(4);
        const value = le ? this.buffer.readInt32LE(this.at) : this.buffer.readInt32BE(this.at);
        this.at += 4;
        return value;
      }
      case TAG.uint32:
      case TAG.handle:
        return this.uint32();
      case TAG.int64:
      case TAG.uint64: {
        this.align(8);
        this.need(8);
        const signed = type.tag === TAG.int64;
        const value = le
          ? signed
            ? this.buffer.readBigInt64LE(this.at)
            : this.buffer.readBigUInt64LE(this.at)
          : signed
            ? this.buffer.readBigInt64BE(this.at)
            : this.buffer.readBigUInt64BE(this.at);
        this.at += 8;
        return value;
      }
      case TAG.double: {
        this.align(8);
        this.need(8);
        const value = le ? this.buffer.readDoubleLE(this.at) : this.buffer.readDoubleBE(this.at);
        this.at += 8;
        return value;
      }
      case TAG.string:
      case TAG.path:
        return this.text(this.uint32());
      case TAG.signature:
        return this.text(this.byte());
      case TAG.variant: {
        const signature = this.text(this.byte());
        return new Variant(signature, this.inVariant(signature, true));
      }
      case TAG.struct:
      case TAG.dictEntry: {
        this.align(8);
        // A loop, not map: no closure per struct (a GetChildren reply is a list of them).
        const fields = type.children;
        const values = new Array<unknown>(fields.length);
        for (let index = 0; index < fields.length; index += 1) values[index] = this.read(fields[index] as TypeNode);
        return values;
      }
      case TAG.array:
        return this.array(type.children[0] as TypeNode);
      default:
        throw new DbusCodecError(`cannot read type ${type.code}`);
    }
  }

  private array(element: TypeNode): unknown {
    const length = this.uint32();
    this.align(ALIGN[element.code] ?? 1);
    const end = this.at + length;
    if (end > this.end) throw new DbusCodecError('array runs past the message');
    if (element.code === 'y') {
      const bytes = Buffer.from(this.buffer.subarray(this.at, end));
      this.at = end;
      return bytes;
    }
    if (element.code === '{') {
      const dictionary: Record<string, unknown> = {};
      while (this.at < end) {
        this.align(8);
        const key = this.read(element.children[0] as TypeNode);
        dictionary[String(key)] = this.read(element.children[1] as TypeNode);
      }
      return dictionary;
    }
    const values: unknown[] = [];
    while (this.at < end) values.push(this.read(element));
    return values;
  }

  /**
   * The value a variant holds, without the Variant (a property's reply, a picked property):
   * the same value read() puts in one.
   */
  variantValue(): unknown {
    return this.inVariant(this.text(this.byte()), true);
  }

  /** Steps over a variant without making its value. */
  skipVariant(): void {
    this.skip(VARIANT_TYPE);
  }

  /** Reads (or with `keep` false, steps over) the one type `signature` names, as a variant's contents. */
  private inVariant(signature: string, keep: boolean): unknown {
    const inner = parseSignature(signature);
    if (inner.length !== 1) throw new DbusCodecError(`a variant holds one type, not ${signature}`);
    // The spec allows 64 containers in all; deeper is a hostile message, said as one, not a stack overflow.
    if (this.variants >= MAX_DEPTH) throw new DbusCodecError('variants nested too deep');
    // No finally: a message that throws is dropped whole, and its reader with it.
    this.variants += 1;
    const value = keep ? this.read(inner[0] as TypeNode) : this.skip(inner[0] as TypeNode);
    this.variants -= 1;
    return value;
  }

  /**
   * Steps over a value without making it, checking what read() checks of its framing (lengths
   * inside the message, a variant's signature): a property nobody asked for costs no objects.
   * An array is stepped over whole by its length.
   */
  skip(type: TypeNode): void {
    switch (type.tag) {
      case TAG.byte:
        this.need(1);
        this.at += 1;
        return;
      case TAG.string:
      case TAG.path:
        return this.skipText(4);
      case TAG.signature:
        return this.skipText(1);
      case TAG.variant: {
        const length = this.byte();
        this.need(length + 1);
        // Read as read() reads it: a signature is short, and its string is the parse cache's key.
        const signature = shortText(this.buffer, this.at, length);
        this.at += length + 1;
        this.inVariant(signature, false);
        return;
      }
      case TAG.struct:
      case TAG.dictEntry:
        this.align(8);
        for (const field of type.children) this.skip(field);
        return;
      case TAG.array: {
        const length = this.uint32();
        this.align(ALIGN[(type.children[0] as TypeNode).code] ?? 1);
        if (this.at + length > this.end) throw new DbusCodecError('array runs past the message');
        this.at += length;
        return;
      }
      default: {
        const size = FIXED_SIZE[type.code];
        if (size === undefined) throw new DbusCodecError(`cannot read type ${type.code}`);
        this.align(size);
        this.need(size);
        this.at += size;
      }
    }
  }

  /** Every complete type of `signature`, in order: a message body. */
  readAll(signature: string): unknown[] {
    const types = parseSignature(signature);
    const values = new Array<unknown>(types.length);
    for (let index = 0; index < types.length; index += 1) values[index] = this.read(types[index] as TypeNode);
    return values;
  }
}
