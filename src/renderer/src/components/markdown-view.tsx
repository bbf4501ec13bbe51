import { memo, useMemo } from 'react';
import { MARKDOWN_THROTTLE_MS } from '../hooks/render-settings';
import { useThrottledValue } from '../hooks/use-throttled-value';
import { handleMarkdownClick } from '../markdown/links';
import { renderMarkdown } from '../markdown/render';

interface Props {
  text: string;
  streaming: boolean;
}

/** An answer's markdown. `renderMarkdown` escapes all HTML the model writes, so the result is safe to inject. */
export const MarkdownView = memo(function MarkdownView({ text, streaming }: Props) {
  const shown = useThrottledValue(text, streaming, MARKDOWN_THROTTLE_MS);
  const html = useMemo(() => renderMarkdown(shown), [shown]);
  return <div className="markdown" onClick={handleMarkdownClick} onAuxClick={handleMarkdownClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
