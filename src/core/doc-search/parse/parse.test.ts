import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseFile, Skipped } from '.';
import { DEFAULT_PARSE_LIMITS } from './limits';
import { pdfWithDeflatedPage, pdfWithLines, pdfWithPages } from './pdf-fixture';

const parse = (file: string, text: string | Buffer) => parseFile(file, Buffer.isBuffer(text) ? text : Buffer.from(text));

describe('document parsers', () => {
  it('cuts a Mallard page at its sections, keeps the summary and drops the credits', async () => {
    const doc = await parse(
      '/usr/share/help/C/app/print.page',
      `<page xmlns="http://projectmallard.org/1.0/" id="print"><info><credit><name>Ada</name></credit><desc>Print on both sides.</desc></info>
       <title>Printing</title><p>Open the dialog.</p>
       <section id="duplex"><title>Two-sided</title><p>Pick <gui>Two-sided</gui>.</p>
         <section id="long"><title>Long edge</title><p>Flip on the long edge.</p></section></section></page>`,
    );
    expect(doc.title).toBe('Printing');
    expect(doc.sections).toEqual([
      { anchor: 'print', section: '', text: expect.stringContaining('Print on both sides.') as string },
      { anchor: 'duplex', section: 'Two-sided', text: 'Pick Two-sided.' },
      { anchor: 'long', section: 'Two-sided › Long edge', text: 'Flip on the long edge.' },
    ]);
    expect(JSON.stringify(doc)).not.toContain('Ada');
  });

  it('reads DocBook sections and HTML headings with their ids or slugs', async () => {
    const book = await parse(
      '/docs/guide.xml',
      '<article><title>Guide</title><sect1 id="setup"><title>Setup</title><para>Install it.</para></sect1></article>',
    );
    expect(book.title).toBe('Guide');
    expect(book.sections).toContainEqual({ anchor: 'setup', section: 'Setup', text: 'Install it.' });
    const html = await parse(
      '/docs/help.html',
      '<html><head><title>Help</title><script>x()</script></head><body><h1>Help</h1><p>Intro</p><h2 id="keys">Keyboard keys</h2><p>Press F1.</p><h2>Mouse use</h2><p>Click.</p></body></html>',
    );
    expect(html.title).toBe('Help');
    expect(html.sections.map(({ anchor, section }) => [anchor, section])).toEqual([
      ['', ''],
      ['keys', 'Keyboard keys'],
      ['mouse-use', 'Mouse use'],
    ]);
    expect(JSON.stringify(html)).not.toContain('x()');
  });

  it('reads a DocBook 5 manual (titles in <info>, xml:id anchors, as pluma ships it) as sections with their titles', async () => {
    const doc = await parse(
      '/usr/share/help/C/pluma/index.docbook',
      `<?xml version="1.0" encoding="utf-8"?>
       <?db.chunk.max_depth 2?>
       <article xmlns="http://docbook.org/ns/docbook" xmlns:xi="http://www.w3.org/2001/XInclude" version="5.0" xml:id="index" xml:lang="en">
         <info><title>Pluma Manual</title><copyright><year>2019</year><holder>MATE Documentation Project</holder></copyright>
           <xi:include href="legal.xml"/><authorgroup><author><personname><firstname>Joachim</firstname></personname></author></authorgroup></info>
         <indexterm><primary>pluma</primary></indexterm>
         <section xml:id="pluma-intro"><info><title>Introduction</title></info>
           <para>The <application>pluma</application> application enables you to create and edit text files.</para></section>
         <section xml:id="pluma-getting-started"><info><title>Getting Started</title></info>
           <section xml:id="pluma-to-start"><info><title>Starting pluma</title></info><para>Choose Accessories, then Pluma Text Editor.</para></section>
         </section>
       </article>`,
    );
    expect(doc.title).toBe('Pluma Manual');
    expect(doc.sections.map(({ anchor, section }) => [anchor, section])).toEqual([
      ['pluma-intro', 'Introduction'],
      ['pluma-to-start', 'Getting Started › Starting pluma'],
    ]);
    expect(doc.sections[0]?.text).toBe('The pluma application enables you to create and edit text files.');
    expect(JSON.stringify(doc)).not.toMatch(/Joachim|MATE Documentation/);
  });

  it('reads a DocBook 4 article whose title is in <articleinfo>, with sect1 and sect2', async () => {
    const doc = await parse(
      '/docs/guide.xml',
      '<article id="guide"><articleinfo><title>Guide</title><author>Ada</author></articleinfo><sect1 id="setup"><sect1info><title>Setup</title></sect1info><para>Install it.</para><sect2 id="deps"><title>Dependencies</title><para>None.</para></sect2></sect1></article>',
    );
    expect(doc.title).toBe('Guide');
    expect(doc.sections).toEqual([
      { anchor: 'setup', section: 'Setup', text: 'Install it.' },
      { anchor: 'deps', section: 'Setup › Dependencies', text: 'None.' },
    ]);
  });

  it('reads Markdown headings (ATX and setext), leaving # inside code alone', async () => {
    const doc = await parse(
      '/notes/vpn.md',
      '# VPN notes\nintro\n\n## Connect\n```sh\n# not a heading\n```\nUse the key.\n\nTroubleshooting\n---\nRestart it.\n',
    );
    expect(doc.title).toBe('VPN notes');
    expect(doc.sections.map((section) => [section.anchor, section.section])).toEqual([
      ['', ''],
      ['connect', 'Connect'],
      ['troubleshooting', 'Troubleshooting'],
    ]);
    expect(doc.sections[1]?.text).toContain('# not a heading');
  });

  it('reads a gzipped man page by its .SH sections, without roff escapes', async () => {
    const roff = '.TH GREP 1\n.SH NAME\ngrep \\- print lines that match\n.SH OPTIONS\n.TP\n.B \\-i\nIgnore \\fBcase\\fR distinctions.\n';
    const doc = await parse('/usr/share/man/man1/grep.1.gz', gzipSync(roff));
    expect(doc.title).toBe('GREP(1)');
    expect(doc.sections.map((section) => section.section)).toEqual(['NAME', 'OPTIONS']);
    expect(doc.sections[1]?.text).toContain('Ignore case distinctions.');
    expect(doc.sections[1]?.text).not.toContain('\\f');
  });

  it('reads a PDF page by page', async () => {
    const doc = await parse('/notes/manual.pdf', pdfWithLines(['Resetting the router', 'Hold the button for ten seconds.']));
    expect(doc.sections).toEqual([{ anchor: 'page=1', section: 'Page 1', text: expect.stringContaining('Hold the button for ten seconds.') as string }]);
  });

  it('refuses, before pdf.js opens it, a PDF of too many pages or with a stream that expands too far', async () => {
    const limits = { ...DEFAULT_PARSE_LIMITS, pdfPagesMax: 20, pdfStreamBytes: 1024 * 1024 };
    const reason = (bytes: Buffer) => parseFile('/notes/a.pdf', bytes, limits).catch((error: unknown) => (error as Skipped).reason);
    expect(await reason(pdfWithPages(30, true))).toBe('has 30 pages; a PDF of more than 20 is not read');
    expect(await reason(pdfWithDeflatedPage(deflateSync, 3 * 1024 * 1024))).toBe('has a compressed stream that expands to more than 1 MB');
    // Under the limits both read.
    expect((await parseFile('/notes/a.pdf', pdfWithPages(20), limits)).sections).toHaveLength(20);
    expect((await parseFile('/notes/a.pdf', pdfWithDeflatedPage(deflateSync, 1000), limits)).sections[0]?.text).toBe('Inflated page');
    // Pages are read within a time budget; with none left, none are.
    expect((await parseFile('/notes/a.pdf', pdfWithPages(3), { ...limits, pdfReadMs: 0 })).sections).toEqual([]);
  });

  it('plain text is one section titled by its file name', async () => {
    expect(await parse('/notes/todo.txt', 'buy milk\n\n\n\ncall Ada')).toEqual({
      title: 'todo',
      sections: [{ anchor: '', section: '', text: 'buy milk\n\ncall Ada' }],
    });
  });

  it('skips what it cannot read, with a reason', async () => {
    const reason = (file: string, bytes: Buffer) => parseFile(file, bytes).catch((error: unknown) => (error instanceof Skipped ? error.reason : 'threw'));
    expect(await reason('/notes/a.txt', Buffer.from([0x61, 0, 0x62]))).toBe('binary content in a text format');
    expect(await reason('/notes/a.pdf', Buffer.from('hello'))).toBe('named .pdf but not a PDF');
    expect(await reason('/usr/share/man/man1/a.1.gz', Buffer.from('not gzip'))).toBe('a .gz file that does not decompress');
    expect(await reason('/notes/a.pdf', Buffer.from('%PDF-1.4 garbage'))).toMatch(/^the PDF could not be read/);
    expect(await reason('/notes/a.txt', Buffer.alloc(21 * 1024 * 1024, 0x61))).toBe('larger than 20 MB');
    expect(await reason('/notes/a.md.gz', gzipSync(Buffer.alloc(2 * 1024 * 1024)))).toMatch(/^binary content/);
    expect(
      await parseFile('/notes/a.html', Buffer.from(`<p>${'x'.repeat(2048)}</p>`), { ...DEFAULT_PARSE_LIMITS, markupBytes: 1024 }).catch(
        (error: unknown) => (error as Skipped).reason,
      ),
    ).toBe('markup larger than 1 KB');
    expect(
      await parseFile('/notes/a.md.gz', gzipSync(Buffer.alloc(3 * 1024 * 1024, 0x61)), { ...DEFAULT_PARSE_LIMITS, textBytes: 1024 * 1024 }).catch(
        (error: unknown) => (error as Skipped).reason,
      ),
    ).toMatch(/^expands to more than 1 MB/);
    expect(await reason('/notes/a.exe', Buffer.from('x'))).toBe('not a format the index reads');
  });
});
