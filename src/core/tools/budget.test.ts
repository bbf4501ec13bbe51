import { describe, expect, it } from 'vitest';
import { fitJson, fitText, fitTextAndJson } from './budget';

const lines = Array.from({ length: 500 }, (_unused, index) => `[id${index}] listitem "Item ${index}"`).join('\n');

describe('fitText', () => {
  it('leaves text within the budget alone', () => {
    expect(fitText('short', 100, 'hint')).toEqual({ value: 'short', truncated: false });
  });

  it('cuts at a line end and says how to get the rest, within the budget', () => {
    const { value, truncated } = fitText(lines, 1000, 'Ask ui_tree for rootId.');
    expect(truncated).toBe(true);
    expect(value.length).toBeLessThanOrEqual(1000);
    expect(value).toMatch(/\n\[id\d+\] listitem "Item \d+"\n… output cut at 1000 characters \(of \d+\)\. Ask ui_tree for rootId\.$/);
  });

  it('cuts one long line too', () => {
    const { value } = fitText('x'.repeat(5000), 300, 'hint');
    expect(value.length).toBeLessThanOrEqual(300);
    expect(value).toMatch(/^x+\n… output cut/);
  });
});

describe('fitTextAndJson', () => {
  it('fits the text and the JSON that quotes it', () => {
    const quoted = lines.replaceAll('Item', '"quoted" Item');
    const fitted = fitTextAndJson(quoted, 2000, 'hint', (text, truncated) => ({ text, truncated }));
    expect(fitted.text.length).toBeLessThanOrEqual(2000);
    expect(JSON.stringify(fitted.value).length).toBeLessThanOrEqual(2000);
    expect(fitted.value).toEqual({ text: fitted.text, truncated: true });
  });
});

describe('fitJson', () => {
  it('halves the longest strings first, then long arrays, keeping types', () => {
    const input = { pid: 1, node: { name: 'n', value: 'v'.repeat(10_000) }, changes: Array.from({ length: 300 }, (_unused, index) => `change ${index}`) };
    const { value, truncated } = fitJson(input, 1500);
    expect(truncated).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(1500);
    expect(value.pid).toBe(1);
    expect(value.node.name).toBe('n');
    expect(value.node.value).toMatch(/^v+…$/);
    expect(value.changes[0]).toBe('change 0');
    expect(input.node.value).toHaveLength(10_000);
  });

  it('cuts many strings a round, so a long list fits in a few walks, not one per string', () => {
    const input = { matches: Array.from({ length: 4000 }, (_unused, index) => ({ id: `id${index}`, name: 'n'.repeat(100) })) };
    // Counted by hand: a spy would keep every argument, and the old way made thousands of calls.
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      calls += 1;
      if (calls > 100) throw new Error('over 100 walks');
      return stringify(...args);
    }) as typeof stringify;
    try {
      const { value, truncated } = fitJson(input, 20_000);
      expect(truncated).toBe(true);
      expect(stringify(value).length).toBeLessThanOrEqual(20_000);
      // One round per string cut took over 4,000 (quadratic: 69 s here).
      expect(calls).toBeLessThan(30);
    } finally {
      JSON.stringify = stringify;
    }
  });

  it('returns small values as they are', () => {
    const input = { a: [1, 2] };
    expect(fitJson(input, 100)).toEqual({ value: input, truncated: false });
  });
});
