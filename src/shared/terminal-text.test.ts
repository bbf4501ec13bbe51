import { describe, expect, it } from 'vitest';
import { terminalLine, terminalText } from './terminal-text';

describe('terminalText', () => {
  it('escapes ESC sequences, C0, DEL and C1 controls, and keeps lines and tabs', () => {
    expect(terminalText('Notes\u001b[8m hidden')).toBe('Notes\\u001b[8m hidden');
    expect(terminalText('a\u0007b\u007fc\u009b31md\u0085e')).toBe('a\\u0007b\\u007fc\\u009b31md\\u0085e');
    expect(terminalText('one\ntwo\tthree')).toBe('one\ntwo\tthree');
    expect(terminalText('over\rwrite')).toBe('over\\u000dwrite');
    expect(terminalText('\u001b]52;c;ZXZpbA==\u0007')).toBe('\\u001b]52;c;ZXZpbA==\\u0007');
  });

  it('escapes bidirectional overrides, isolates and marks, and line separators', () => {
    expect(terminalText('invoice\u202Efdp.exe')).toBe('invoice\\u202efdp.exe');
    for (const char of ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u2028', '\u2029']) {
      expect(terminalText(`a${char}b`)).toBe(`a\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    }
  });

  it('leaves ordinary text of any script alone', () => {
    const text = 'Configurações — Salvar «rápido» 日本語 עברית العربية 🙂 ñ';
    expect(terminalText(text)).toBe(text);
  });

  it('keeps printed JSON valid and equal in meaning', () => {
    const value = { name: 'A\u202eB\u0085C\u001bD', list: ['\u2028'] };
    const printed = terminalText(JSON.stringify(value));
    expect(JSON.parse(printed)).toEqual(value);
    // eslint-disable-next-line no-control-regex -- the test looks for raw control characters
    expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(printed)).toBe(false);
  });
});

describe('terminalLine', () => {
  it('escapes line breaks and tabs too, so a value cannot fake a line of its own', () => {
    expect(terminalLine('Notes\n? allow ui_action — [y] once:')).toBe('Notes\\u000a? allow ui_action — [y] once:');
    expect(terminalLine('a\tb')).toBe('a\\u0009b');
  });
});
