import { describe, expect, it } from 'vitest';
import { clip, clipLine } from './clip';

describe('clip', () => {
  it('keeps a text that fits, and cuts a longer one to the width with an ellipsis as its last character', () => {
    expect(clip('abcde', 5)).toBe('abcde');
    expect(clip('abcdef', 5)).toBe('abcd…');
    expect(clip('abcdef', 5)).toHaveLength(5);
  });

  it('clipLine puts the text on one line before it measures it', () => {
    expect(clipLine('  a\n\tb   c  ', 10)).toBe('a b c');
    expect(clipLine('one\ntwo three', 8)).toBe('one two…');
  });
});
