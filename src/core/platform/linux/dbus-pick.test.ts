/**
 * The reply fast paths (native/linux/dbus-pick.ts, Reader.variantValue and Reader.skip): every
 * value they give is the value the generic reader puts in the same place, and hostile input
 * gives a DbusCodecError, never a wrong value, another error or a hang.
 */
import { describe, expect, it } from 'vitest';
import { Reader } from '../../../../native/linux/dbus-reader';
import { DbusCodecError, parseSignature, type TypeNode } from '../../../../native/linux/dbus-signature';
import { Variant } from '../../../../native/linux/dbus-variant';
import { Writer } from '../../../../native/linux/dbus-writer';
import { MESSAGE_TYPE, bodyReader, decodeMessage, encodeMessage } from '../../../../native/linux/dbus-message';
import { PropertyPick, readPicked } from '../../../../native/linux/dbus-pick';

/** Chromium's answer to GetAll(org.a11y.atspi.Accessible), as a 20k page's nodes give it. */
const CHROMIUM_ALL = {
  Parent: new Variant('(so)', [':1.3', '/org/a11y/atspi/accessible/12244']),
  Name: new Variant('s', 'Act 2383 \u00e9\u2603'),
  Description: new Variant('s', ''),
  Attributes: new Variant('a{ss}', { 'text-align': 'left', 'table-cell-index': '167', 'name-from': 'contents', tag: 'td', display: 'table-cell' }),
  ChildCount: new Variant('i', 1),
  Locale: new Variant('s', 'C.UTF-8'),
  AccessibleId: new Variant('s', ''),
  Odd: new Variant('a(ayvx)', [[Buffer.from([1, 2, 3]), new Variant('d', 1.5), 9n]]),
  Nested: new Variant('v', new Variant('as', ['a', 'b'])),
  Bytes: new Variant('y', 7),
  Short: new Variant('n', -3),
  Sig: new Variant('g', 'a{sv}'),
};
const PICK = new PropertyPick(['Name', 'Description', 'ChildCount', 'Parent', 'Absent']);

function body(signature: string, values: unknown[]): Buffer {
  const writer = new Writer(64);
  const types = parseSignature(signature);
  types.forEach((type, index) => writer.write(type, values[index]));
  return Buffer.from(writer.buffer.subarray(0, writer.at));
}

/** What the generic reader gives for each picked name: the value of its Variant. */
function generic(bytes: Buffer, pick: PropertyPick): unknown[] {
  const [all] = new Reader(bytes, true).readAll('a{sv}') as [Record<string, Variant | undefined>];
  return pick.names.map((name) => all[name]?.value);
}

function picked(bytes: Buffer, pick = PICK, end = bytes.length): unknown[] {
  return readPicked(new Reader(bytes, true, 0, end), pick);
}

describe('picked properties of a GetAll reply', () => {
  it('are the values the generic reader gives, and undefined for a property the reply lacks', () => {
    const bytes = body('a{sv}', [CHROMIUM_ALL]);
    expect(picked(bytes)).toEqual(generic(bytes, PICK));
    expect(picked(bytes)).toEqual(['Act 2383 \u00e9\u2603', '', 1, [':1.3', '/org/a11y/atspi/accessible/12244'], undefined]);
    // Every property, picked alone, in every order.
    const names = Object.keys(CHROMIUM_ALL);
    const all = new PropertyPick([...names].reverse());
    expect(picked(bytes, all)).toEqual(generic(bytes, all));
    // Read in place inside a bigger buffer, aligned from where the message starts.
    const shifted = Buffer.concat([Buffer.alloc(8, 0xee), bytes, Buffer.alloc(8, 0xee)]);
    expect(readPicked(new Reader(shifted, true, 8, 8 + bytes.length), PICK)).toEqual(generic(bytes, PICK));
  });

  it('read a whole message left unread past its header, the empty dictionary, and a repeated key as the dictionary keeps it (the last)', () => {
    const message = { type: MESSAGE_TYPE.methodReturn, serial: 3, replySerial: 1, sender: ':1.3', signature: 'a{sv}', body: [CHROMIUM_ALL] };
    const wire = encodeMessage(message);
    const head = decodeMessage(wire, 0, wire.length, false);
    expect(head.body).toBeUndefined();
    expect(readPicked(bodyReader(wire, 0, wire.length, head.bodyAt as number), PICK)).toEqual(generic(body('a{sv}', [CHROMIUM_ALL]), PICK));
    expect(picked(body('a{sv}', [{}]))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    // Two entries with one key, which no object holds: an array of (sv) structs is the same bytes.
    const twice = body('a(sv)', [
      [
        ['Name', new Variant('s', 'first')],
        ['Other', new Variant('u', 2)],
        ['Name', new Variant('u', 1)],
      ],
    ]);
    expect(generic(twice, PICK)[0]).toBe(1);
    expect(picked(twice)[0]).toBe(1);
  });

  it('match keys by their bytes: a key that is not ASCII never matches, and a bad name is refused', () => {
    const bytes = body('a{sv}', [{ 'N\u00e4me': new Variant('s', 'x'), Nam: new Variant('s', 'y'), Names: new Variant('s', 'z') }]);
    expect(picked(bytes)).toEqual(generic(bytes, PICK));
    expect(picked(bytes)[0]).toBeUndefined();
    expect(() => new PropertyPick(['N\u00e4me'])).toThrow(DbusCodecError);
    expect(() => new PropertyPick([''])).toThrow(DbusCodecError);
  });

  it('decode bad UTF-8 in a picked string as the generic reader does', () => {
    const bytes = body('a{sv}', [{ Name: new Variant('s', 'ab\u00e9cd'), Description: new Variant('s', 'x'.repeat(30) + '\u00e9') }]);
    // é's two bytes (c3 a9) made one lone continuation byte and one stray lead byte.
    const broken = Buffer.from(bytes);
    for (const at of [broken.indexOf(0xc3), broken.lastIndexOf(0xc3)]) broken[at] = 0xa9;
    expect(picked(broken)).toEqual(generic(broken, PICK));
    expect(String(picked(broken)[0])).toContain('\ufffd');
  });

  it('refuse every truncation, and lengths past the message, with a DbusCodecError', () => {
    const bytes = body('a{sv}', [CHROMIUM_ALL]);
    for (let end = 0; end < bytes.length; end += 1) expect(() => picked(bytes, PICK, end), `end ${end}`).toThrow(DbusCodecError);
    // Each length field in turn claims more than there is: the array's, every key's and every string's.
    for (let at = 0; at + 4 <= bytes.length; at += 4) {
      const broken = Buffer.from(bytes);
      broken.writeUInt32LE(0xfffffff0, at);
      let genericError: unknown;
      try {
        generic(broken, PICK);
      } catch (error) {
        genericError = error;
      }
      // Where the generic reader reads the bytes, the values agree. Where it refuses them, the picks
      // refuse them too, or (the broken length inside a property stepped over whole by its
      // array's length) give the wanted values as they were: never a wrong one.
      if (genericError === undefined) expect(picked(broken)).toEqual(generic(broken, PICK));
      else {
        expect(genericError).toBeInstanceOf(DbusCodecError);
        let values: unknown[] | undefined;
        try {
          values = picked(broken);
        } catch (error) {
          expect(error, `at ${at}`).toBeInstanceOf(DbusCodecError);
        }
        if (values !== undefined) expect(values, `at ${at}`).toEqual(generic(bytes, PICK));
      }
    }
  });

  it('refuse variants nested past the spec, wanted or not, with a DbusCodecError, as the generic reader does', () => {
    const nested = (depth: number): Variant => {
      let value = new Variant('u', 5);
      for (let level = 0; level < depth; level += 1) value = new Variant('v', value);
      return value;
    };
    const deep = nested(5000);
    for (const key of ['Name', 'Locale']) {
      const bytes = body('a{sv}', [{ [key]: deep }]);
      expect(() => picked(bytes), key).toThrow(DbusCodecError);
      expect(() => new Reader(bytes, true).readAll('a{sv}')).toThrow(DbusCodecError);
    }
    const shallow = body('a{sv}', [{ Name: nested(40) }]);
    expect(picked(shallow)).toEqual(generic(shallow, PICK));
  });
});

describe("a variant's value and a value stepped over", () => {
  const samples: [string, unknown][] = [
    ['y', 200],
    ['b', true],
    ['n', -2],
    ['q', 65000],
    ['i', -70000],
    ['u', 4e9],
    ['x', -(2n ** 40n)],
    ['t', 2n ** 60n],
    ['d', -0.25],
    ['s', 'text \u2603'],
    ['o', '/org/a11y/atspi/accessible/1'],
    ['g', 'a(so)'],
    ['ay', Buffer.from([9, 8, 7])],
    ['(so)', [':1.2', '/p']],
    [
      'a(so)',
      [
        [':1.2', '/p'],
        [':1.3', '/q'],
      ],
    ],
    ['a{ss}', { a: 'b', c: 'd' }],
    ['a{iv}', { 3: new Variant('s', 'three') }],
    ['av', [new Variant('i', 1), new Variant('as', ['x'])]],
    ['ax', [1n, 2n]],
  ];

  it('are what the generic reader gives, and each step lands where its read ends', () => {
    for (const [signature, value] of samples) {
      // A byte first, so every alignment is exercised from an odd offset.
      const bytes = body('yv', [1, new Variant(signature, value)]);
      const expected = (new Reader(bytes, true).readAll('yv')[1] as Variant).value;
      const reader = new Reader(bytes, true);
      reader.byte();
      expect(reader.variantValue(), signature).toEqual(expected);
      expect(reader.at).toBe(bytes.length);
      const skipped = body('yvy', [1, new Variant(signature, value), 42]);
      const stepper = new Reader(skipped, true);
      stepper.byte();
      stepper.skip(parseSignature('v')[0] as TypeNode);
      expect(stepper.byte(), signature).toBe(42);
    }
  });

  it('refuse a variant that names no single type, or a type nobody knows', () => {
    for (const signature of ['', 'ii', 'z', 'a']) {
      const bytes = Buffer.from([signature.length, ...Buffer.from(signature), 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(() => new Reader(bytes, true).variantValue(), signature).toThrow(DbusCodecError);
      expect(() => new Reader(bytes, true).skipVariant(), signature).toThrow(DbusCodecError);
    }
  });
});
