import { describe, expect, it } from 'vitest';
import { splitBlocks } from './blocks';
import { renderMarkdown } from './render';

const SAMPLE = [
  '# Title',
  'A paragraph with `code` and https://example.com.',
  '- one\n- two\n  - nested',
  '```python\ndef f():\n\n    return 1\n```',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '1. first\n2. second',
  '> quoted\n> more',
  '~~~\nfenced\n\n\nwith blanks\n~~~',
  'Last line.',
].join('\n\n');

describe('splitBlocks', () => {
  it('splits at blank lines outside fences and loses nothing', () => {
    const blocks = splitBlocks(SAMPLE);
    expect(blocks).toHaveLength(9);
    expect(blocks.join('\n')).toBe(SAMPLE);
    expect(blocks[3]).toBe('```python\ndef f():\n\n    return 1\n```\n');
  });

  it('renders block by block exactly as the whole text renders', () => {
    expect(splitBlocks(SAMPLE).map(renderMarkdown).join('')).toBe(renderMarkdown(SAMPLE));
  });

  it('keeps indented continuations and open fences in the last block', () => {
    expect(splitBlocks('- item\n\n  more of the item\n\nnext')).toEqual(['- item\n\n  more of the item\n', 'next']);
    expect(splitBlocks('text\n\n```js\nconst a = 1;\n\nconst b')).toEqual(['text\n', '```js\nconst a = 1;\n\nconst b']);
  });

  it('keeps text with reference definitions whole', () => {
    const text = 'See [the docs][d].\n\nMore.\n\n[d]: https://example.com';
    expect(splitBlocks(text)).toEqual([text]);
  });

  it('is stable while streaming: earlier blocks never change as text is appended', () => {
    let previous: string[] = [];
    for (let end = 1; end <= SAMPLE.length; end += 7) {
      const blocks = splitBlocks(SAMPLE.slice(0, end));
      expect(blocks.slice(0, Math.max(0, previous.length - 1))).toEqual(previous.slice(0, -1));
      previous = blocks;
    }
  });
});
