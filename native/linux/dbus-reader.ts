/**
 * Unmarshalling (the D-Bus wire format of the specification) from a message where it lies in a
 * buffer, into values in dbus-next's shapes: numbers, strings, booleans, BigInt (x, t), Buffer
 * (ay), arrays (arrays and structs), plain objects (dictionaries) and Variant (v). Every length
 * is checked against the message's end, and a value nobody wants is stepped over unmade.
 */
import { ALIGN, DbusCodecError, MAX_DEPTH, TAG, parseSignature, typeNode, type TypeNode } from './dbus-signature';
import { Variant } from './dbus-variant';

/** Bytes of the fixed-size basic types, which skip() steps over by their size. */
const FIXED_SIZE: Record<string, number | undefined> = { b: 4, n: 2, q: 2, i: 4, u: 4, h: 4, x: 8, t: 8, d: 8 };
const VARIANT_TYPE = typeNode('v');

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
