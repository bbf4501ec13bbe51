/**
 * D-Bus messages on the wire: the fixed header, the header fields and the body, written
 * little-endian and read in either byte order (a message keeps its sender's).
 */
import { Reader } from './dbus-reader';
import { DbusCodecError, parseSignature, typeNode, type TypeNode } from './dbus-signature';
import type { Variant } from './dbus-variant';
import { Writer } from './dbus-writer';

export const MESSAGE_TYPE = { methodCall: 1, methodReturn: 2, error: 3, signal: 4 } as const;
export const NO_REPLY_EXPECTED = 0x1;

export interface WireMessage {
  type: number;
  flags?: number;
  serial: number;
  path?: string | undefined;
  interface?: string | undefined;
  member?: string | undefined;
  errorName?: string;
  replySerial?: number;
  destination?: string | undefined;
  sender?: string;
  signature?: string | undefined;
  body?: unknown[] | undefined;
  /** Where the body starts, when it was left for the receiver to read (decodeMessage's `withBody` false). */
  bodyAt?: number;
}

const FIELD = { path: 1, interface: 2, member: 3, errorName: 4, replySerial: 5, destination: 6, sender: 7, signature: 8 } as const;
/** The spec's limit on a whole message: a peer announcing more is broken or hostile. */
export const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;
const PROTOCOL_VERSION = 1;
const VARIANT: TypeNode = typeNode('v');
const BASIC_TYPE: Record<string, TypeNode | undefined> = { o: typeNode('o'), s: typeNode('s'), u: typeNode('u'), g: typeNode('g') };

/** A header field, a (yv) struct, written straight: no tuple or Variant made per field of every call. */
function writeField(writer: Writer, code: number, signature: 'o' | 's' | 'u' | 'g', value: string | number | undefined): void {
  if (value === undefined) return;
  writer.align(8);
  writer.byte(code);
  writer.byte(1);
  writer.byte(signature.charCodeAt(0));
  writer.byte(0);
  writer.write(BASIC_TYPE[signature] as TypeNode, value);
}

export function encodeMessage(message: WireMessage): Buffer {
  const writer = new Writer();
  writeMessage(writer, message);
  return writer.buffer.subarray(0, writer.at);
}

/** A method call's own fields (dbus.ts' MethodCall): what writeCall needs beyond the serial. */
export interface CallFields {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string | undefined;
  body?: unknown[] | undefined;
}

/**
 * Appends one message to `writer` (a batch of messages back to back: each starts 8-aligned, as
 * the last one's end is padded). On a body that does not fit its signature it throws and leaves
 * the writer as it was.
 */
export function writeMessage(writer: Writer, message: WireMessage): void {
  const start = writer.at;
  try {
    writeFixedHeader(writer, message.type, message.flags ?? 0, message.serial);
    const fieldsAt = writer.at;
    writeField(writer, FIELD.path, 'o', message.path);
    if (message.errorName === undefined && message.replySerial === undefined) {
      writeTail(writer, headerTail(message.interface, message.member, message.destination, message.signature));
    } else {
      writeField(writer, FIELD.interface, 's', message.interface);
      writeField(writer, FIELD.member, 's', message.member);
      writeField(writer, FIELD.errorName, 's', message.errorName);
      writeField(writer, FIELD.replySerial, 'u', message.replySerial);
      writeField(writer, FIELD.destination, 's', message.destination);
      writeField(writer, FIELD.signature, 'g', message.signature === '' ? undefined : message.signature);
    }
    writeBody(writer, start, fieldsAt, message.signature, message.body);
  } catch (error) {
    writer.at = start;
    throw error;
  }
}

/**
 * Appends one method call, the bytes writeMessage writes for it, from the call's own fields (no
 * message object made per call). `destination: false` leaves the destination out (a direct
 * connection to one app).
 */
export function writeCall(writer: Writer, serial: number, call: CallFields, destination: boolean): void {
  const start = writer.at;
  try {
    writeFixedHeader(writer, MESSAGE_TYPE.methodCall, 0, serial);
    const fieldsAt = writer.at;
    writeField(writer, FIELD.path, 'o', call.path);
    writeTail(writer, headerTail(call.interface, call.member, destination ? call.destination : undefined, call.signature));
    writeBody(writer, start, fieldsAt, call.signature, call.signature === undefined ? undefined : (call.body ?? []));
  } catch (error) {
    writer.at = start;
    throw error;
  }
}

function writeFixedHeader(writer: Writer, type: number, flags: number, serial: number): void {
  writer.base = writer.at;
  writer.byte(0x6c); // 'l': little-endian
  writer.byte(type);
  writer.byte(flags);
  writer.byte(PROTOCOL_VERSION);
  writer.uint32(0); // body length, filled in by writeBody
  writer.uint32(serial);
  writer.uint32(0); // header fields' length, filled in by writeBody
}

/** The header fields after the path, as headerTail made them: they start 8-aligned, as each field does. */
function writeTail(writer: Writer, tail: Buffer): void {
  if (tail.length === 0) return;
  writer.align(8);
  writer.bytes(tail);
}

function writeBody(writer: Writer, start: number, fieldsAt: number, signature: string | undefined, body: unknown[] | undefined): void {
  writer.buffer.writeUInt32LE(writer.at - fieldsAt, start + 12);
  writer.align(8);
  const bodyAt = writer.at;
  const types = parseSignature(signature ?? '');
  const values = body ?? [];
  if (values.length !== types.length) throw new DbusCodecError(`signature ${signature ?? ''} wants ${types.length} values, got ${values.length}`);
  for (let index = 0; index < types.length; index += 1) writer.write(types[index] as TypeNode, values[index]);
  writer.buffer.writeUInt32LE(writer.at - bodyAt, start + 4);
}

interface Tail {
  interface: string | undefined;
  member: string | undefined;
  signature: string | undefined;
  bytes: Buffer;
}

/**
 * A call's header fields after its path (interface, member, destination, signature), encoded
 * once per distinct call: a read repeats a dozen calls on thousands of paths. Fields start
 * 8-aligned, so bytes encoded from offset 0 are the same bytes at any 8-aligned offset.
 * Kept by destination, then found among the few calls made to it.
 */
const tails = new Map<string, Tail[]>();
let tailCount = 0;
/** A long-lived process talks to many apps over time: the cache stays bounded. */
const MAX_TAILS = 2048;

function headerTail(iface: string | undefined, member: string | undefined, destination: string | undefined, signature: string | undefined): Buffer {
  const key = destination ?? '';
  let known = tails.get(key);
  if (known !== undefined) {
    for (const tail of known) if (tail.member === member && tail.interface === iface && tail.signature === signature) return tail.bytes;
  }
  const writer = new Writer(128);
  writeField(writer, FIELD.interface, 's', iface);
  writeField(writer, FIELD.member, 's', member);
  writeField(writer, FIELD.destination, 's', destination);
  writeField(writer, FIELD.signature, 'g', signature === '' ? undefined : signature);
  const bytes = Buffer.from(writer.buffer.subarray(0, writer.at));
  if (tailCount >= MAX_TAILS) {
    tails.clear();
    tailCount = 0;
    known = undefined;
  }
  if (known === undefined) tails.set(key, (known = []));
  known.push({ interface: iface, member, signature, bytes });
  tailCount += 1;
  return bytes;
}

/** How many bytes the message starting at `offset` takes, once its 16-byte fixed header is in; undefined before. */
export function messageLength(buffer: Buffer, offset: number): number | undefined {
  if (buffer.length - offset < 16) return undefined;
  const endian = buffer[offset];
  if (endian !== 0x6c && endian !== 0x42) throw new DbusCodecError(`bad byte order mark ${String(endian)}`);
  const le = endian === 0x6c;
  const bodyLength = le ? buffer.readUInt32LE(offset + 4) : buffer.readUInt32BE(offset + 4);
  const fieldsLength = le ? buffer.readUInt32LE(offset + 12) : buffer.readUInt32BE(offset + 12);
  const total = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8) + bodyLength;
  if (total > MAX_MESSAGE_BYTES) throw new DbusCodecError(`message of ${total} bytes is over the limit`);
  return total;
}

/**
 * One whole message: `length` bytes at `offset` of `buffer` (all of it by default). A reply's
 * sender and destination are stepped over, not read: a read takes thousands of replies and
 * matches them by serial alone. With `withBody` false the body is left for bodyReader.
 */
export function decodeMessage(buffer: Buffer, offset = 0, length = buffer.length - offset, withBody = true): WireMessage {
  const end = offset + length;
  const reader = new Reader(buffer, buffer[offset] === 0x6c, offset, end);
  reader.at = offset + 1;
  const type = reader.byte();
  const flags = reader.byte();
  reader.byte(); // protocol version
  reader.uint32(); // body length: messageLength already framed it
  const serial = reader.uint32();
  const fieldsLength = reader.uint32();
  const fieldsEnd = reader.at + fieldsLength;
  const reply = type === MESSAGE_TYPE.methodReturn || type === MESSAGE_TYPE.error;
  const message: WireMessage = { type, flags, serial };
  while (reader.at < fieldsEnd) {
    reader.at += (8 - ((reader.at - offset) % 8)) % 8;
    const code = reader.byte();
    // The usual fields hold one basic type: read without making a Variant for each.
    const basicCode = buffer[reader.at] === 1 ? buffer[reader.at + 1] : undefined;
    const basic = basicCode === undefined || buffer[reader.at + 2] !== 0 ? undefined : BASIC_BY_CODE[basicCode];
    if (basic === undefined) {
      const value = (reader.read(VARIANT) as Variant).value;
      assignField(message, code, value);
      continue;
    }
    reader.at += 3;
    if (reply && (code === FIELD.destination || code === FIELD.sender) && basic.code === 's') {
      reader.skipText(4);
      continue;
    }
    assignField(message, code, reader.read(basic));
  }
  reader.at = fieldsEnd + ((8 - ((fieldsEnd - offset) % 8)) % 8);
  if (!withBody) message.bodyAt = reader.at;
  else message.body = message.signature === undefined ? [] : reader.readAll(message.signature);
  return message;
}

/**
 * A reader at the body of a message decodeMessage left unread (`withBody` false), so its
 * receiver reads it as it needs: a reply nobody waits for is not read at all, a property's
 * value comes without its Variant, a GetAll's unwanted entries are stepped over.
 */
export function bodyReader(buffer: Buffer, offset: number, length: number, bodyAt: number): Reader {
  const reader = new Reader(buffer, buffer[offset] === 0x6c, offset, offset + length);
  reader.at = bodyAt;
  return reader;
}

const BASIC_BY_CODE: Record<number, TypeNode | undefined> = Object.fromEntries(Object.entries(BASIC_TYPE).map(([code, type]) => [code.charCodeAt(0), type]));

function assignField(message: WireMessage, code: number, value: unknown): void {
  if (code === FIELD.path) message.path = String(value);
  else if (code === FIELD.interface) message.interface = String(value);
  else if (code === FIELD.member) message.member = String(value);
  else if (code === FIELD.errorName) message.errorName = String(value);
  else if (code === FIELD.replySerial) message.replySerial = Number(value);
  else if (code === FIELD.destination) message.destination = String(value);
  else if (code === FIELD.sender) message.sender = String(value);
  else if (code === FIELD.signature) message.signature = String(value);
}
