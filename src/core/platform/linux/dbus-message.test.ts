/**
 * Messages on the wire against dbus-next's marshaller: framing, a batch of messages back to back,
 * a reply's header fields, and calls written from their own fields (and from the kept header).
 */
import { describe, expect, it } from 'vitest';
import { Variant } from '../../../../native/linux/dbus-variant';
import { Writer } from '../../../../native/linux/dbus-writer';
import { MESSAGE_TYPE, decodeMessage, encodeMessage, messageLength, writeCall, writeMessage } from '../../../../native/linux/dbus-message';
import { call, reference } from './testing/dbus-next-reference';

describe('D-Bus messages', () => {
  it('frames only a whole fixed header', () => {
    const bytes = encodeMessage(call('s', ['x']));
    expect(messageLength(bytes.subarray(0, 15), 0)).toBeUndefined();
    expect(messageLength(bytes, 0)).toBe(bytes.length);
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
