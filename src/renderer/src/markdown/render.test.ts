import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render';

describe('renderMarkdown links', () => {
  it('links bare https URLs', () => {
    expect(renderMarkdown('See https://example.com/docs.')).toContain('<a href="https://example.com/docs">');
  });

  it('marks only links that will not open, by the shared https rule', () => {
    expect(renderMarkdown('[a](HTTPS://example.com/x)')).not.toContain('title=');
    expect(renderMarkdown('[a](http://example.com/x)')).toContain('title="Only https links open"');
  });

  it('leaves schemeless www. addresses and e-mail addresses as text: linkify would make links that never open', () => {
    const html = renderMarkdown('See www.example.com or write to someone@example.com.');
    expect(html).not.toContain('<a');
    expect(html).toContain('www.example.com');
  });
});
