/**
 * The writer against dbus-next's marshaller, which it replaced: the same bytes out, for every
 * type a call carries and for text of every length, ASCII or not.
 */
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '../../../../native/linux/dbus-message';
import { call, reference } from './testing/dbus-next-reference';

describe('D-Bus writer', () => {
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
});
