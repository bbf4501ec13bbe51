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

/** Constructs that span blank lines: split at those blank lines they would render differently. */
const SPANNING = [
  // Loose lists: one list, numbered on, items in <p>.
  '1. a\n\n1. b\n\n1. c',
  '- a\n\n- b',
  '* a\n\n\n* b\n\n+ c\n\n3) d\n\n4) e',
  // An item's indented continuation paragraph, then the next item.
  '- a\n\n  more of a\n\n- b\n\nafter the list',
  '1. a\n\n   ```\n   code\n\n   ```\n\n2. b',
  // An empty item (a marker alone on its line) continued below.
  '-\n  a\n\n- b',
  // Indented code with a blank line inside.
  'text\n\n    code\n\n    more code\n\ntext',
  // A blockquote with blank `>` lines, and two quotes a blank line apart.
  '> a\n>\n> b\n\n> c',
  // A tight list then a paragraph, and a list right after a paragraph.
  '- a\n- b\n\npara\n\n- c\n\n- d',
];

describe('splitBlocks', () => {
  it('splits at blank lines outside fences and loses nothing', () => {
    const blocks = splitBlocks(SAMPLE);
    // Never before a list item: the lists join the paragraph and the table before them.
    expect(blocks).toHaveLength(7);
    expect(blocks.join('\n')).toBe(SAMPLE);
    expect(blocks[2]).toBe('```python\ndef f():\n\n    return 1\n```\n');
  });

  it('renders block by block exactly as the whole text renders', () => {
    expect(splitBlocks(SAMPLE).map(renderMarkdown).join('')).toBe(renderMarkdown(SAMPLE));
    for (const text of SPANNING) expect(splitBlocks(text).map(renderMarkdown).join(''), text).toBe(renderMarkdown(text));
  });

  it('keeps a loose list in one block', () => {
    expect(splitBlocks('1. a\n\n1. b\n\n1. c')).toEqual(['1. a\n\n1. b\n\n1. c']);
    expect(renderMarkdown('1. a\n\n1. b\n\n1. c').match(/<ol>/g)).toHaveLength(1);
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
    for (const [text, step] of [[SAMPLE, 7], ...SPANNING.map((spanning) => [spanning, 1] as const)] as const) {
      let previous: string[] = [];
      for (let end = 1; end <= text.length; end += step) {
        const blocks = splitBlocks(text.slice(0, end));
        expect(blocks.slice(0, Math.max(0, previous.length - 1)), text.slice(0, end)).toEqual(previous.slice(0, -1));
        previous = blocks;
      }
    }
  });
});
