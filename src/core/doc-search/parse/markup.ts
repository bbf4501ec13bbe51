import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import type { DocSection, ParsedDoc } from '../types';
import { slug, tidy, uniqueAnchors } from './slug';

/** How one markup language marks its structure; Mallard, DocBook and HTML differ only in this. */
interface Dialect {
  xml: boolean;
  /** Elements whose text is never content (metadata, scripts, media). */
  skip: Set<string>;
  /** Elements that start a nested section with a `title` child (Mallard, DocBook). */
  sections: Set<string>;
  /** Heading elements that start a section at their level (HTML h1–h6); the number is the level. */
  headings: Map<string, number>;
  /** Elements that end a line of text. */
  blocks: Set<string>;
  /** Elements kept although inside a skipped one (Mallard's <desc>, the page's summary). */
  keepInSkipped?: Set<string>;
}

const MALLARD: Dialect = {
  xml: true,
  skip: new Set(['info', 'media', 'comment', 'its:rules']),
  keepInSkipped: new Set(['desc']),
  sections: new Set(['section', 'page']),
  headings: new Map(),
  blocks: new Set(['p', 'item', 'title', 'td', 'tr', 'code', 'screen', 'note', 'list', 'steps', 'terms', 'desc', 'tree', 'figure', 'example', 'quote']),
};

const DOCBOOK: Dialect = {
  xml: true,
  skip: new Set([
    'info',
    'bookinfo',
    'articleinfo',
    'chapterinfo',
    'prefaceinfo',
    'appendixinfo',
    'sectioninfo',
    'sect1info',
    'sect2info',
    'sect3info',
    'refsect1info',
    'indexterm',
    'mediaobject',
    'imageobject',
    'remark',
  ]),
  sections: new Set([
    'book',
    'article',
    'chapter',
    'preface',
    'appendix',
    'section',
    'sect1',
    'sect2',
    'sect3',
    'sect4',
    'refentry',
    'refsect1',
    'refsect2',
    'simplesect',
  ]),
  headings: new Map(),
  blocks: new Set(['para', 'simpara', 'title', 'listitem', 'entry', 'row', 'programlisting', 'screen', 'note', 'tip', 'warning', 'term']),
};

const HTML: Dialect = {
  xml: false,
  skip: new Set(['head', 'script', 'style', 'nav', 'noscript', 'svg', 'template', 'iframe']),
  sections: new Set(),
  headings: new Map([1, 2, 3, 4, 5, 6].map((level) => [`h${level}`, level])),
  blocks: new Set(['p', 'div', 'li', 'tr', 'td', 'th', 'pre', 'br', 'dt', 'dd', 'blockquote', 'section', 'article', 'table', 'ul', 'ol', 'figcaption']),
};

interface Open {
  path: string[];
  anchor: string;
  lines: string[];
}

/** Walks a document once, cutting it into sections at section elements or headings. */
function cut(root: ChildNode[], dialect: Dialect, fallbackTitle: string, fixedTitle?: string): ParsedDoc {
  const sections: DocSection[] = [];
  const anchors = uniqueAnchors();
  let title = fixedTitle ?? '';
  let current: Open = { path: [], anchor: '', lines: [''] };
  /** The outermost section element is the page itself; every later one is a section of it. */
  let pageOpened = false;
  /** Heading path by level, for HTML. */
  const headingPath: string[] = [];
  const flush = (): void => {
    const text = tidy(current.lines.join(''));
    if (text !== '') sections.push({ anchor: current.anchor, section: current.path.join(' › '), text });
  };
  const start = (path: string[], anchor: string): void => {
    flush();
    current = { path, anchor: anchors(anchor), lines: [''] };
  };
  const textOf = (node: ChildNode): string => {
    if (node.type === 'text') return node.data;
    if ('children' in node) return node.children.map(textOf).join('');
    return '';
  };
  const visit = (node: ChildNode, path: string[], skipped: boolean): void => {
    if (node.type === 'text') {
      if (!skipped) current.lines.push(node.data);
      return;
    }
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return;
    const element = node as Element;
    const name = element.name.toLowerCase();
    if (dialect.skip.has(name)) {
      // A skipped block may still hold a part worth keeping (a Mallard page's <desc> summary).
      for (const child of element.children) visitKept(child, path);
      return;
    }
    if (skipped) return;
    if (dialect.sections.has(name)) {
      const heading = titleOf(element);
      const headingText = heading === undefined ? '' : tidy(textOf(heading)).replace(/\n/g, ' ');
      const isPage = !pageOpened && path.length === 0;
      pageOpened = true;
      if (isPage) {
        if (title === '') title = headingText;
        current.anchor = anchors(element.attribs['id'] ?? element.attribs['xml:id'] ?? '');
      } else start([...path, headingText].filter(Boolean), element.attribs['id'] ?? element.attribs['xml:id'] ?? slug(headingText));
      const inner = isPage ? path : [...path, headingText].filter(Boolean);
      for (const child of element.children) if (child !== heading) visit(child, inner, false);
      // Text after a nested section belongs to the enclosing one again.
      if (!isPage) start(path, slug(path.join('-')));
      return;
    }
    const level = dialect.headings.get(name);
    if (level !== undefined) {
      const headingText = tidy(textOf(element)).replace(/\n/g, ' ');
      if (title === '' && level === 1) {
        title = headingText;
        return;
      }
      headingPath.length = Math.max(0, level - 2);
      headingPath[level - 2] = headingText;
      start(headingPath.filter(Boolean), element.attribs['id'] ?? slug(headingText));
      return;
    }
    if (name === 'title' && !dialect.xml) {
      if (title === '') title = tidy(textOf(element));
      return;
    }
    for (const child of element.children) visit(child, path, false);
    if (dialect.blocks.has(name)) current.lines.push('\n');
  };
  const visitKept = (node: ChildNode, path: string[]): void => {
    if (node.type !== 'tag') return;
    if (dialect.keepInSkipped?.has(node.name) === true) {
      current.lines.push(textOf(node), '\n');
      return;
    }
    for (const child of node.children) visitKept(child, path);
  };
  for (const node of root) visit(node, [], false);
  flush();
  return { title: title || fallbackTitle, sections };
}

/**
 * A section element's title: its own <title> child, else the one in its info block, where
 * DocBook 5 (<info>) and DocBook 4 (<articleinfo>, <sect1info>…) keep it.
 */
function titleOf(element: Element): Element | undefined {
  const isTitle = (child: ChildNode): child is Element => child.type === 'tag' && child.name === 'title';
  const own = element.children.find(isTitle);
  if (own !== undefined) return own;
  for (const child of element.children) {
    if (child.type !== 'tag' || !child.name.endsWith('info')) continue;
    const inInfo = child.children.find(isTitle);
    if (inInfo !== undefined) return inInfo;
  }
  return undefined;
}

export function parseMallard(source: string, fallbackTitle: string): ParsedDoc {
  return cut(parseDocument(source, { xmlMode: true }).children, MALLARD, fallbackTitle);
}

export function parseDocBook(source: string, fallbackTitle: string): ParsedDoc {
  return cut(parseDocument(source, { xmlMode: true }).children, DOCBOOK, fallbackTitle);
}

export function parseHtml(source: string, fallbackTitle: string): ParsedDoc {
  return cut(parseDocument(source).children, HTML, fallbackTitle);
}
