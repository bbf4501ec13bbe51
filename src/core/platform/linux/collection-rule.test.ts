import { describe, expect, it } from 'vitest';
import { STATE } from '../../../../native/linux/atspi';
import { parseSignature, type TypeNode } from '../../../../native/linux/dbus-signature';
import { Writer } from '../../../../native/linux/dbus-writer';
import { RULE, bitWords, matchRule } from './collection-rule';

describe('Collection match rules', () => {
  it('are the rules the bridges were always sent: every node, one state, any of some roles', () => {
    expect(matchRule()).toEqual([[0, 0], 1, {}, 1, [0, 0, 0, 0], 1, [], 1, false]);
    expect(matchRule({ states: [STATE.FOCUSED] })).toEqual([[1 << STATE.FOCUSED, 0], 1, {}, 1, [0, 0, 0, 0], 1, [], 1, false]);
    expect(matchRule({ roles: [1, 33] })).toEqual([[0, 0], 1, {}, 1, [2, 2, 0, 0], 2, [], 1, false]);
    // Roles asked for but none known: no node, not every node.
    expect(matchRule({ roles: [] })[5]).toBe(2);
  });

  it('keeps every word a signed 32-bit int, bit 31 set or not, and leaves out bits past the words', () => {
    expect(bitWords([31, 63], 2)).toEqual([-(2 ** 31), -(2 ** 31)]);
    expect(bitWords([64, -1, 0], 2)).toEqual([1, 0]);
    const [type] = parseSignature(RULE);
    expect(() => new Writer().write(type as TypeNode, matchRule({ states: [31, 63], roles: [31, 63, 95, 127] }))).not.toThrow();
  });
});
