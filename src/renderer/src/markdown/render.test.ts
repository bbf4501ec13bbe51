import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render';

describe('renderMarkdown links', () => {
  it('links bare https URLs', () => {
    expect(renderMarkdown('See https://example.com/docs.')).toContain('<a href="https://example.com/docs">');
  });

  it('leaves schemeless www. addresses and e-mail addresses as text: linkify would make links that never open', () => {
    const html = renderMarkdown('See www.example.com or write to someone@example.com.');
    expect(html).not.toContain('<a');
    expect(html).toContain('www.example.com');
  });
});
