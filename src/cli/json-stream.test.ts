import { describe, expect, it } from 'vitest';
import { writeJson } from './json-stream';

function written(value: unknown): { text: string; chunks: number } {
  const chunks: string[] = [];
  writeJson(value, (text) => chunks.push(text));
  return { text: chunks.join(''), chunks: chunks.length };
}

describe('writeJson', () => {
  it('writes what JSON.stringify(value, null, 2) writes, with a newline', () => {
    const value = {
      id: 'abcde',
      name: 'quote " and \u001b escape',
      empty: [],
      none: {},
      skipped: undefined,
      states: { enabled: true, focused: false },
      list: [1, undefined, 'two', null, { deep: [[]] }],
      when: new Date(0),
    };
    expect(written(value).text).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(written([]).text).toBe('[]\n');
    expect(written('text').text).toBe('"text"\n');
  });

  it('writes a big tree in many chunks, never as one string', () => {
    const leaf = (index: number) => ({ id: `n${index}`, role: 'button', name: `Act ${index}`, states: { enabled: true, focused: false }, actions: ['press'] });
    const tree = { id: 'root', role: 'window', children: Array.from({ length: 20_000 }, (_unused, index) => leaf(index)) };
    const { text, chunks } = written(tree);
    expect(JSON.parse(text)).toEqual(tree);
    expect(chunks).toBeGreaterThan(20);
  });
});
