import type { DocSection, ParsedDoc } from '../types';
import { slug, tidy, uniqueAnchors } from './slug';

/** Markdown cut at its headings (ATX `#` and setext underlines); fenced code stays text of its section. */
export function parseMarkdown(source: string, fallbackTitle: string): ParsedDoc {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const sections: DocSection[] = [];
  const anchors = uniqueAnchors();
  const path: string[] = [];
  let title = '';
  let anchor = '';
  let body: string[] = [];
  let fenced = false;
  const flush = (): void => {
    const text = tidy(body.join('\n'));
    if (text !== '') sections.push({ anchor, section: path.filter(Boolean).join(' › '), text });
    body = [];
  };
  const heading = (level: number, text: string): void => {
    flush();
    if (level === 1 && title === '') {
      title = text;
      anchor = anchors('');
      return;
    }
    path.length = Math.max(0, level - 2);
    path[level - 2] = text;
    anchor = anchors(slug(text));
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const atx = fenced ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const next = lines[index + 1];
    if (atx !== null) heading((atx[1] as string).length, atx[2] as string);
    else if (!fenced && line.trim() !== '' && next !== undefined && /^(=+|-+)\s*$/.test(next) && !/^\s*[-*+]\s/.test(line)) {
      heading(next.startsWith('=') ? 1 : 2, line.trim());
      index += 1;
    } else body.push(line);
  }
  flush();
  return { title: title || fallbackTitle, sections };
}

/** Plain text is one section; the chunker cuts it at paragraphs. */
export function parseText(source: string, fallbackTitle: string): ParsedDoc {
  const text = tidy(source.replace(/\r\n?/g, '\n'));
  return { title: fallbackTitle, sections: text === '' ? [] : [{ anchor: '', section: '', text }] };
}

/**
 * A man page's roff source cut at .SH and .SS. Font changes and escapes are dropped and the
 * common macros read as text, which is all a search needs; no formatter is run.
 */
export function parseMan(source: string, fallbackTitle: string): ParsedDoc {
  const sections: DocSection[] = [];
  const anchors = uniqueAnchors();
  let title = fallbackTitle;
  let heading = '';
  let sub = '';
  let body: string[] = [];
  const flush = (): void => {
    const text = tidy(body.join('\n'));
    const section = [heading, sub].filter(Boolean).join(' › ');
    if (text !== '') sections.push({ anchor: anchors(slug(section || 'top')), section, text });
    body = [];
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = unescapeRoff(raw);
    const request = /^[.'](\S+)\s*(.*)$/.exec(raw);
    if (request === null) {
      body.push(line);
      continue;
    }
    const [, macro = '', rest = ''] = request;
    const args = unescapeRoff(rest.replace(/"/g, ''));
    if (macro === 'TH') title = `${args.split(/\s+/)[0] ?? fallbackTitle}(${args.split(/\s+/)[1] ?? ''})`;
    else if (macro === 'SH' || macro === 'Sh') {
      flush();
      heading = args;
      sub = '';
    } else if (macro === 'SS' || macro === 'Ss') {
      flush();
      sub = args;
    } else if (['B', 'I', 'BR', 'RB', 'IR', 'RI', 'BI', 'IB', 'SM', 'SB', 'Nm', 'Nd', 'Ar', 'Fl', 'Op', 'It', 'Xr', 'Pa', 'Dl'].includes(macro))
      body.push(args);
    else if (['PP', 'LP', 'P', 'TP', 'IP', 'Pp', 'sp', 'br'].includes(macro)) body.push(macro === 'IP' || macro === 'TP' ? `\n${args}` : '\n');
  }
  flush();
  return { title, sections };
}

/** Font switches, named characters and other escapes of roff, as plain text. */
function unescapeRoff(text: string): string {
  return text
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\\(em|\\\[em\]/g, '—')
    .replace(/\\\(en|\\\[en\]/g, '–')
    .replace(/\\\((aq|cq)/g, "'")
    .replace(/\\\((lq|rq|dq)/g, '"')
    .replace(/\\\(bu|\\\[bu\]/g, '•')
    .replace(/\\\(..|\\\[[^\]]*\]/g, '')
    .replace(/\\[-e]/g, (escape) => (escape === '\\e' ? '\\' : '-'))
    .replace(/\\[&|^%]/g, '')
    .replace(/\\s[+-]?\d/g, '')
    .replace(/\\(.)/g, '$1');
}
