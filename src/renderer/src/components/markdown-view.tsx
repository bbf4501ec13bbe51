import { memo, useMemo, useRef } from 'react';
import { MARKDOWN_THROTTLE_MS } from '../hooks/render-settings';
import { useThrottledValue } from '../hooks/use-throttled-value';
import { splitBlocks } from '../markdown/blocks';
import { handleMarkdownClick } from '../markdown/links';
import { markRender, renderMarkdown } from '../markdown/render';

interface Props {
  text: string;
  streaming: boolean;
}

/**
 * An answer's markdown, rendered block by block: blocks whose source did not change keep their
 * HTML (and React leaves their DOM alone), so a streaming update costs one small block.
 * `renderMarkdown` escapes all HTML the model writes, so the result is safe to inject.
 */
export const MarkdownView = memo(function MarkdownView({ text, streaming }: Props) {
  const shown = useThrottledValue(text, streaming, MARKDOWN_THROTTLE_MS);
  const cache = useRef(new Map<string, string>());
  const blocks = useMemo(() => {
    const previous = cache.current;
    const next = new Map<string, string>();
    const rendered = splitBlocks(shown).map((source) => {
      const html = previous.get(source) ?? next.get(source) ?? renderMarkdown(source);
      next.set(source, html);
      return html;
    });
    cache.current = next;
    markRender(shown.length);
    return rendered;
  }, [shown]);
  return (
    <div className="markdown" onClick={handleMarkdownClick} onAuxClick={handleMarkdownClick}>
      {blocks.map((html, index) => (
        // Blocks only ever grow at the end, so an index keeps naming the same block.
        <div key={index} className="markdown-block" dangerouslySetInnerHTML={{ __html: html }} />
      ))}
    </div>
  );
});
