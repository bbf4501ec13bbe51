/**
 * PDFs for tests and benchmarks: real files any reader opens, written with correct
 * cross-reference offsets, so the extractor is tested on a PDF, not a stub.
 */

const escape = (text: string): string => text.replace(/[\\()]/g, (char) => `\\${char}`);
const content = (lines: string[]): string => ['BT', '/F1 12 Tf', '14 TL', '72 720 Td', ...lines.map((line) => `(${escape(line)}) '`), 'ET'].join('\n');
const stream = (body: string): string => `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`;

/** Objects numbered from 1 in order, the first being the catalog. */
function pdfOf(objects: string[]): Buffer {
  const parts = ['%PDF-1.4\n'];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const part = `${index + 1} 0 obj\n${object}\nendobj\n`;
    parts.push(part);
    length += Buffer.byteLength(part, 'latin1');
  });
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) parts.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A one-page PDF with the given lines of text. */
export function pdfWithLines(lines: string[]): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(content(lines)),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/**
 * A PDF of `count` pages. Each page has its own text (`Page N …`) unless `shared`, where every
 * page shows one content stream: 75,000 pages then fit in about 10 MB, the size of a PDF bomb.
 */
export function pdfWithPages(count: number, shared = false): Buffer {
  const pageObject = (index: number): number => 5 + index * (shared ? 1 : 2);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: count }, (_, index) => `${pageObject(index)} 0 R`).join(' ')}] /Count ${count} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream(content(['A page like every other page.'])),
  ];
  for (let index = 0; index < count; index += 1) {
    const contents = shared ? 4 : pageObject(index) + 1;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    if (!shared) objects.push(stream(content([`Page ${index + 1} explains topic${index + 1}.`])));
  }
  return pdfOf(objects);
}

/** A one-page PDF whose content stream is `inflated` bytes of spaces, stored deflated: small on disk, huge when read. */
export function pdfWithDeflatedPage(deflate: (data: Buffer) => Buffer, inflated: number): Buffer {
  const body = Buffer.concat([Buffer.from('BT /F1 12 Tf 72 720 Td (Inflated page) Tj ET\n'), Buffer.alloc(inflated, 0x20)]);
  const packed = deflate(body).toString('latin1');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n${packed}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}
