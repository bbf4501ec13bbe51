/**
 * Marshalling (the D-Bus wire format of the specification) into a growing buffer, from values in
 * dbus-next's shapes: numbers, strings, booleans, BigInt (x, t), Buffer (ay), arrays (arrays and
 * structs), plain objects (dictionaries) and Variant (v). dbus-next's generic marshaller made
 * several objects per value; this writer writes each value straight from its parsed type.
 */
import { ALIGN, DbusCodecError, TAG, parseSignature, type TypeNode } from './dbus-signature';
import { Variant } from './dbus-variant';

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
