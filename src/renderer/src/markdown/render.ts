import MarkdownIt from 'markdown-it';
import { isHttpsUrl } from '../../../shared/urls';
import { highlightCode } from './highlight';

/**
 * The one markdown renderer. Raw HTML in an answer is text (`html: false`), and markdown-it's
 * own link check already refuses javascript:, vbscript:, file: and most data: URLs. What a model
 * writes is untrusted, so nothing it says may run or load anything.
 */
const markdown = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  highlight: (code, language) => highlightCode(code, language.trim().toLowerCase()),
});

// Only https links open. linkify would turn `www.example.com` into an http:// link and an e-mail
// address into a mailto: one, links that never open; left as text they can still be copied.
markdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false });

// Remote images would be blocked by the CSP anyway (img-src 'self'); show their text instead.
markdown.renderer.rules.image = (tokens, index) => markdown.utils.escapeHtml(tokens[index]?.content ?? '');

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index];
  const href = String(token?.attrGet('href') ?? '');
  // Only https opens (through main, in the system browser); say so on the others.
  if (token !== undefined && !isHttpsUrl(href)) token.attrSet('title', 'Only https links open');
  return defaultLinkOpen(tokens, index, options, env, self);
};

/** Tests and bench:render count these marks (one per markdown update of a message) with a PerformanceObserver. */
export const RENDER_MARK = 'deskpilot:markdown-render';

export function markRender(length: number): void {
  performance.mark(RENDER_MARK, { detail: { length } });
  // Observers already have the entry; clearing keeps a long session from piling marks up.
  performance.clearMarks(RENDER_MARK);
}

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}
