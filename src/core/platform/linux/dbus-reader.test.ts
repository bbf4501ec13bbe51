/**
 * The reader against dbus-next's marshaller, which it replaced: the same values (in dbus-next's
 * shapes) back from what dbus-next wrote or we wrote, in either byte order, and broken input
 * refused instead of looping or reading past the message.
 */
import { describe, expect, it } from 'vitest';
import { Reader } from '../../../../native/linux/dbus-reader';
import { parseSignature } from '../../../../native/linux/dbus-signature';
import { Variant } from '../../../../native/linux/dbus-variant';
import { MESSAGE_TYPE, decodeMessage, encodeMessage, messageLength } from '../../../../native/linux/dbus-message';
import { call, reference } from './testing/dbus-next-reference';

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

describe('D-Bus reader', () => {
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
});
