/**
 * A Properties.GetAll reply (a{sv}) read for the few properties a caller wants: their values in
 * the order asked, each the value its Variant would hold, and every other entry stepped over
 * without a string, a Variant or a dictionary made for it. A tree read asks GetAll of every node
 * and keeps four of Chromium's seven properties (its Attributes alone are a dictionary of three
 * to five strings a node).
 */
import type { Reader } from './dbus-reader';
import { DbusCodecError } from './dbus-signature';

/** The properties a caller wants, by name, with each name's bytes to match keys against in place. */
export class PropertyPick {
  readonly names: readonly string[];
  private readonly bytes: readonly Buffer[];

  constructor(names: readonly string[]) {
    // Property names are ASCII D-Bus member names: a key's bytes equal a name's only if its string does.
    for (const name of names) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new DbusCodecError(`not a property name: ${name}`);
    this.names = names;
    this.bytes = names.map((name) => Buffer.from(name, 'latin1'));
  }

  /** Which name the `length` bytes at `at` spell, or -1. */
  indexOf(buffer: Buffer, at: number, length: number): number {
    for (let index = 0; index < this.bytes.length; index += 1) {
      const name = this.bytes[index] as Buffer;
      if (name.length !== length) continue;
      let same = true;
      for (let offset = 0; offset < length && same; offset += 1) same = buffer[at + offset] === name[offset];
      if (same) return index;
    }
    return -1;
  }
}

/**
 * Reads the a{sv} at the reader's place: the wanted properties' values (undefined for one the
 * reply lacks; the last wins where a key repeats, as in the dictionary read() makes). Bounds are
 * checked as read() checks them: a truncated or overlong reply throws DbusCodecError.
 */
export function readPicked(reader: Reader, pick: PropertyPick): unknown[] {
  const values = new Array<unknown>(pick.names.length).fill(undefined);
  const length = reader.uint32();
  reader.align(8);
  const end = reader.at + length;
  if (end > reader.end) throw new DbusCodecError('array runs past the message');
  while (reader.at < end) {
    reader.align(8);
    const keyLength = reader.uint32();
    reader.need(keyLength + 1);
    const index = pick.indexOf(reader.buffer, reader.at, keyLength);
    reader.at += keyLength + 1;
    if (index < 0) reader.skipVariant();
    else values[index] = reader.variantValue();
  }
  return values;
}
