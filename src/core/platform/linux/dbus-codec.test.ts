/**
 * The wire codec against dbus-next's, which it replaced: the same bytes out, the same values
 * (in dbus-next's shapes) back, whichever side wrote the message.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Reader, Variant, Writer, parseSignature } from '../../../../native/linux/dbus-codec';
import { MESSAGE_TYPE, decodeMessage, encodeMessage, messageLength, writeCall, writeMessage, type WireMessage } from '../../../../native/linux/dbus-message';

const require = createRequire(import.meta.url);
const reference = require('dbus-next/lib/message.js') as {
  marshall: (message: Record<string, unknown>) => [Buffer, unknown[]];
  unmarshall: (buffer: Buffer) => Record<string, unknown> & { body: unknown[] };
};

const CACHE_ROW = [
  [':1.5', '/org/a11y/atspi/accessible/7'],
  [':1.5', '/org/a11y/atspi/accessible/root'],
  [':1.5', '/org/a11y/atspi/accessible/3'],
  -1,
  2,
  ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Text'],
  'Ünïcode name \u2603',
  43,
  '',
  [0x8000100, 0],
];

function call(signature: string, body: unknown[]): WireMessage {
  return { type: MESSAGE_TYPE.methodCall, serial: 7, destination: ':1.5', path: '/a/b', interface: 'x.y', member: 'M', signature, body };
}

describe('D-Bus codec', () => {
  it('writes the bytes dbus-next wrote', () => {
    for (const [signature, body, pairs] of [
      ['', []],
      ['ss', ['org.a11y.atspi.Accessible', 'Name']],
      ['ii', [0, -1]],
      ['iiu', [12, -40, 0]],
      ['sass', ['object:state-changed', [], '']],
      [
        '(aiia{ss}iaiiasib)uib',
        [[[43, 88], 2, { a: 'b' }, 0, [], 0, [], 0, true], 0, 0, true],
        [[[43, 88], 2, [['a', 'b']], 0, [], 0, [], 0, true], 0, 0, true],
      ],
    ] as [string, unknown[], unknown[]?][]) {
      const message = call(signature, body);
      // dbus-next's low-level marshaller takes a dictionary as [key, value] pairs.
      const theirs = reference.marshall({ ...message, body: pairs ?? body })[0];
      expect(encodeMessage(message).equals(theirs), signature).toBe(true);
    }
  });

  it('reads what dbus-next writes, in dbus-next shapes', () => {
    const rows = [CACHE_ROW, CACHE_ROW];
    const bytes = reference.marshall({ ...call('a((so)(so)(so)iiassusau)', [rows]), type: MESSAGE_TYPE.methodReturn, replySerial: 3 })[0];
    expect(messageLength(bytes, 0)).toBe(bytes.length);
    const message = decodeMessage(bytes);
    expect(message).toMatchObject({ type: MESSAGE_TYPE.methodReturn, replySerial: 3, member: 'M', path: '/a/b', body: [rows] });
  });

  it('round-trips variants, dictionaries, bytes and 64-bit numbers', () => {
    const body = [
      { Name: new Variant('s', 'OK'), ChildCount: new Variant('i', 3), Bounds: new Variant('(iiii)', [1, 2, 3, 4]) },
      Buffer.from([1, 2, 3]),
      -5n,
      2n ** 63n,
      1.5,
      true,
    ];
    const decoded = decodeMessage(encodeMessage(call('a{sv}ayxtdb', body)));
    expect(decoded.body).toEqual(body);
    expect((decoded.body?.[0] as Record<string, Variant>)['Name']).toBeInstanceOf(Variant);
  });

  it('reads big-endian messages', () => {
    // (u) 258 then s "hi", big-endian, from offset 0.
    const bytes = Buffer.from([0, 0, 1, 2, 0, 0, 0, 2, 0x68, 0x69, 0]);
    expect(new Reader(bytes, false).readAll('us')).toEqual([258, 'hi']);
  });

  it('refuses broken input instead of looping or reading past the end', () => {
    expect(() => parseSignature('a')).toThrow();
    expect(() => parseSignature('(i')).toThrow();
    expect(() => parseSignature('a{sss}')).toThrow();
    expect(() => new Reader(Buffer.from([5, 0, 0, 0, 0x61]), true).readAll('s')).toThrow();
    expect(() => new Reader(Buffer.from([0xff, 0xff, 0, 0]), true).readAll('ai')).toThrow();
    expect(() => encodeMessage(call('ii', [1]))).toThrow();
  });

  it('frames only a whole fixed header', () => {
    const bytes = encodeMessage(call('s', ['x']));
    expect(messageLength(bytes.subarray(0, 15), 0)).toBeUndefined();
    expect(messageLength(bytes, 0)).toBe(bytes.length);
  });

  it('writes and reads text that is not ASCII by its UTF-8 bytes, at every length', () => {
    for (const text of [
      '',
      'a',
      'é',
      'Ünïcode name \u2603',
      'x'.repeat(23) + '\u00e9',
      'y'.repeat(40) + '\ud83d\ude00',
      'ASCII only, and long enough to pass the short path',
    ]) {
      const message = call('sg', [text, 'a(so)']);
      expect(encodeMessage(message).equals(reference.marshall({ ...message })[0]), text).toBe(true);
      expect(decodeMessage(encodeMessage(message)).body).toEqual([text, 'a(so)']);
    }
  });

  it('writes a batch of messages back to back, each aligned from its own start, and reads each in place', () => {
    const writer = new Writer(8);
    const messages = [
      call('s', ['odd']),
      call('ay', [Buffer.from([1, 2, 3])]),
      call('(iiii)x', [[1, 2, 3, 4], 9n]),
      call('a{sv}', [{ Name: new Variant('s', 'N') }]),
    ];
    for (const message of messages) writeMessage(writer, message);
    // A body that does not fit its signature leaves the batch as it was.
    const before = writer.at;
    expect(() => writeMessage(writer, call('ii', [1]))).toThrow();
    expect(writer.at).toBe(before);
    const bytes = writer.buffer.subarray(0, writer.at);
    expect(bytes.equals(Buffer.concat(messages.map((message) => encodeMessage(message))))).toBe(true);
    let offset = 0;
    for (const message of messages) {
      const length = messageLength(bytes, offset) as number;
      expect(decodeMessage(bytes, offset, length).body).toEqual(message.body);
      offset += length;
    }
    expect(offset).toBe(bytes.length);
  });

  it('reads no further than the message it was given', () => {
    const bytes = Buffer.concat([encodeMessage(call('s', ['abc'])), encodeMessage(call('s', ['def']))]);
    const first = messageLength(bytes, 0) as number;
    // The first message's string ("abc", its body's last 8 bytes) said 6 bytes long: it would run into the next message.
    const broken = Buffer.from(bytes);
    expect(broken.readUInt32LE(first - 8)).toBe(3);
    broken.writeUInt32LE(6, first - 8);
    expect(() => decodeMessage(broken, 0, first)).toThrow();
    expect(decodeMessage(bytes, 0, first).body).toEqual(['abc']);
  });

  it("steps over a reply's sender and destination, and keeps a signal's", () => {
    // The bus daemon writes the sender: dbus-next's marshaller does too.
    const reply = reference.marshall({ ...call('s', ['x']), type: MESSAGE_TYPE.methodReturn, replySerial: 7, sender: ':1.9' })[0];
    expect(decodeMessage(reply)).toMatchObject({ replySerial: 7, body: ['x'] });
    expect(decodeMessage(reply).sender).toBeUndefined();
    expect(decodeMessage(reply).destination).toBeUndefined();
    const signal = reference.marshall({ ...call('s', ['y']), type: MESSAGE_TYPE.signal, sender: ':1.9' })[0];
    expect(decodeMessage(signal)).toMatchObject({ sender: ':1.9', destination: ':1.5', member: 'M', body: ['y'] });
  });

  it('writes a call from its own fields as dbus-next wrote it, on every path length, the first time and from the kept header', () => {
    const calls = [
      { destination: ':1.42', interface: 'org.a11y.atspi.Accessible', member: 'GetRole' },
      { destination: ':1.42', interface: 'org.a11y.atspi.Accessible', member: 'GetChildren' },
      { destination: ':1.42', interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: ['org.a11y.atspi.Accessible', 'Name'] },
      { destination: ':1.7', interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: ['org.a11y.atspi.Accessible', 'Näme'] },
      { destination: ':1.7', interface: 'org.a11y.atspi.Text', member: 'GetText', signature: 'ii', body: [0, -1] },
      { destination: 'org.a11y.atspi.Registry', interface: 'org.a11y.atspi.Registry', member: 'RegisterEvent', signature: 'sass', body: ['focus:', [], ''] },
      { destination: ':1.42', interface: 'org.a11y.atspi.Accessible', member: 'GetRole', signature: '' },
    ];
    // Three rounds: the first encodes each call's header, the next two copy what was kept.
    for (let round = 0; round < 3; round += 1) {
      for (let length = 1; length <= 17; length += 1) {
        const path = `/${'p'.repeat(length - 1)}`;
        for (const [index, fields] of calls.entries()) {
          for (const destination of [true, false]) {
            const serial = 1000 * round + 17 * index + length;
            // A batch already holding a message: the call's alignment counts from its own start.
            const writer = new Writer(8);
            writeMessage(writer, call('s', ['odd']));
            const before = writer.at;
            writeCall(writer, serial, { ...fields, path }, destination);
            const ours = writer.buffer.subarray(before, writer.at);
            const message = { ...fields, path, type: MESSAGE_TYPE.methodCall, serial, ...(destination ? {} : { destination: undefined }) };
            const theirs = reference.marshall({ ...message, body: fields.signature === undefined ? [] : (fields.body ?? []) })[0];
            expect(ours.equals(theirs), `${fields.member} ${path} ${String(destination)}`).toBe(true);
            expect(ours.equals(encodeMessage({ ...message, ...(fields.signature === undefined ? {} : { body: fields.body ?? [] }) }))).toBe(true);
          }
        }
      }
    }
  });

  it('writes calls right past the number of headers it keeps, and leaves the batch as it was on a bad body', () => {
    const writer = new Writer(8);
    for (let index = 0; index < 3000; index += 1) {
      writer.at = 0;
      const fields = { destination: `:1.${index}`, path: '/o', interface: 'x.Y', member: 'M', signature: 's', body: ['v'] };
      writeCall(writer, index + 1, fields, true);
      const theirs = reference.marshall({ ...fields, type: MESSAGE_TYPE.methodCall, serial: index + 1 })[0];
      expect(writer.buffer.subarray(0, writer.at).equals(theirs), fields.destination).toBe(true);
    }
    const at = writer.at;
    expect(() => writeCall(writer, 1, { destination: ':1.1', path: '/o', interface: 'x.Y', member: 'M', signature: 'ii', body: [1] }, true)).toThrow();
    expect(writer.at).toBe(at);
  });
});
