import { describe, expect, it } from 'vitest';
import { STATE } from '../../../../native/linux/atspi';
import { normalizeRole } from './roles';
import { decodeStates, hasState } from './states';

function bits(...states: number[]): number[] {
  const words = [0, 0];
  for (const state of states) words[state >> 5] = ((words[state >> 5] ?? 0) | (1 << (state & 31))) >>> 0;
  return words;
}

describe('AT-SPI states', () => {
  it('reads bits from both words', () => {
    const word = bits(STATE.FOCUSED, STATE.CHECKABLE, STATE.READ_ONLY);
    expect(hasState(word, STATE.FOCUSED)).toBe(true);
    expect(hasState(word, STATE.CHECKABLE)).toBe(true);
    expect(hasState(word, STATE.SHOWING)).toBe(false);
  });

  it('decodes GTK3 states, including hidden', () => {
    expect(
      decodeStates(bits(STATE.ENABLED, STATE.SENSITIVE, STATE.SHOWING, STATE.CHECKABLE, STATE.CHECKED, STATE.FOCUSED), { gtk4: false, secret: false }),
    ).toEqual({
      enabled: true,
      focused: true,
      checked: true,
    });
    expect(decodeStates(bits(STATE.EDITABLE), { gtk4: false, secret: true })).toEqual({
      enabled: false,
      focused: false,
      editable: true,
      secret: true,
      visible: false,
    });
  });

  it('does not call a GTK4 node hidden or disabled for lack of bits it never sets', () => {
    expect(decodeStates(bits(STATE.FOCUSABLE), { gtk4: true, secret: false })).toEqual({ enabled: true, focused: false });
  });

  it('treats a pressed toggle as checked and reads expansion', () => {
    expect(decodeStates(bits(STATE.SHOWING, STATE.ENABLED, STATE.PRESSED, STATE.EXPANDABLE), { gtk4: false, secret: false })).toMatchObject({
      checked: true,
      expanded: false,
    });
  });
});

describe('roles', () => {
  it('maps numeric roles, whatever the toolkit calls them', () => {
    expect(normalizeRole(43)).toBe('button');
    expect(normalizeRole(7)).toBe('checkbox');
    expect(normalizeRole(40)).toBe('textfield');
    expect(normalizeRole(79)).toBe('textfield');
    expect(normalizeRole(23)).toBe('window');
    expect(normalizeRole(999)).toBe('unknown');
  });

  it("reads a web page's landmarks (110) as regions, not unknown nodes", () => {
    expect(normalizeRole(110)).toBe('group');
    expect(normalizeRole(121)).toBe('list');
  });
});
