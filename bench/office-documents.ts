/**
 * LibreOffice documents with real content for bench:office-reads, as flat ODF (opened with no
 * import dialog): a sheet with a label row and column, figures, formulas and text; a report with
 * headings, paragraphs, a table and two lists; a slide with a title and bullets.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { calcSheetApp } from '../test/linux/calc-sheet';
import type { ToolkitApp } from '../test/linux/toolkit-apps';

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"',
].join(' ');
const doc = (mime: string, body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<office:document ${NS} office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.${mime}"><office:body>${body}</office:body></office:document>\n`;

const p = (text: string): string => `<text:p>${text}</text:p>`;
const textCell = (text: string): string => `<table:table-cell office:value-type="string">${p(text)}</table:table-cell>`;
const numberCell = (value: number): string => `<table:table-cell office:value-type="float" office:value="${value}">${p(String(value))}</table:table-cell>`;
const formulaCell = (formula: string): string => `<table:table-cell table:formula="of:=${formula}" office:value-type="float"/>`;

/** Twelve months of three figures, a total row of formulas, and a note column with text. */
function sheet(): string {
  const rows = [`<table:table-row>${['Month', 'Revenue', 'Cost', 'Margin', 'Note'].map(textCell).join('')}</table:table-row>`];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  months.forEach((month, index) => {
    const row = index + 2;
    // A comment on one cell: LibreOffice may describe or name a commented cell differently.
    const comment =
      index === 1
        ? `<table:table-cell office:value-type="string"><office:annotation>${p('Checked twice')}</office:annotation>${p('Late')}</table:table-cell>`
        : '<table:table-cell/>';
    const note = index % 3 === 0 ? textCell(`Quarter ${index / 3 + 1} starts`) : comment;
    rows.push(
      `<table:table-row>${textCell(month)}${numberCell(100 + index * 7)}${numberCell(40 + index * 3)}${formulaCell(`[.B${row}]-[.C${row}]`)}${note}</table:table-row>`,
    );
  });
  rows.push(
    `<table:table-row>${textCell('Total')}${formulaCell('SUM([.B2:.B13])')}${formulaCell('SUM([.C2:.C13])')}${formulaCell('SUM([.D2:.D13])')}</table:table-row>`,
  );
  return doc(
    'spreadsheet',
    `<office:spreadsheet><table:table table:name="Figures">${rows.join('')}</table:table><table:table table:name="Empty"/></office:spreadsheet>`,
  );
}

function report(): string {
  const table = (name: string, rows: string[][]): string =>
    `<table:table table:name="${name}"><table:table-column table:number-columns-repeated="${rows[0]?.length ?? 1}"/>${rows
      .map((row) => `<table:table-row>${row.map((cell) => `<table:table-cell>${p(cell)}</table:table-cell>`).join('')}</table:table-row>`)
      .join('')}</table:table>`;
  const list = (items: string[]): string => `<text:list>${items.map((item) => `<text:list-item>${p(item)}</text:list-item>`).join('')}</text:list>`;
  return doc(
    'text',
    `<office:text><text:h text:outline-level="1">Quarterly report</text:h>${p('The quarterly numbers are in the second table.')}` +
      `<text:h text:outline-level="2">Summary</text:h>${list(['Revenue grew', 'Costs held', 'Margin improved'])}` +
      table('People', [
        ['Name', 'Team', 'Role'],
        ['Ada', 'Core', 'Lead'],
        ['Grace', 'Apps', 'Engineer'],
      ]) +
      `<text:h text:outline-level="2">Figures</text:h>${p('See below.')}` +
      table('Figures', [
        ['Quarter', 'Revenue', 'Cost'],
        ['Q1', '100', '40'],
        ['Q2', '120', '45'],
        ['Q3', '130', '50'],
      ]) +
      `<text:h text:outline-level="3">Next steps</text:h>${list(['Hire', 'Ship', 'Measure'])}${p('End of report.')}</office:text>`,
  );
}

function slides(): string {
  const frame = (kind: string, y: string, body: string): string =>
    `<draw:frame presentation:class="${kind}" svg:x="2cm" svg:y="${y}" svg:width="24cm" svg:height="3cm"><draw:text-box>${body}</draw:text-box></draw:frame>`;
  return doc(
    'presentation',
    `<office:presentation><draw:page draw:name="One">${frame('title', '1cm', p('Deskpilot slides'))}${frame(
      'outline',
      '5cm',
      `<text:list><text:list-item>${p('First point')}</text:list-item><text:list-item>${p('Second point')}</text:list-item></text:list>`,
    )}</draw:page><draw:page draw:name="Two">${frame('title', '1cm', p('Second slide'))}</draw:page></office:presentation>`,
  );
}

function write(home: string, name: string, text: string): string {
  mkdirSync(home, { recursive: true });
  const file = path.join(home, name);
  writeFileSync(file, text);
  return file;
}

const office = (name: string, module: string, file: string, text: () => string, knownText: string): ToolkitApp => ({
  name,
  toolkit: 'LibreOffice (GTK 3)',
  binary: '/usr/bin/soffice',
  args: (home) => [
    `-env:UserInstallation=file://${path.join(home, 'libreoffice-office')}`,
    '--norestore',
    '--nologo',
    '--nodefault',
    `--${module}`,
    path.join(home, file),
  ],
  knownText,
  prepare: (home) => void write(home, file, text()),
  action: { describe: 'none', target: () => undefined, request: () => ({}), landed: () => false },
});

export const OFFICE_APPS: ToolkitApp[] = [
  office('calc', 'calc', 'figures.fods', sheet, 'Revenue'),
  office('writer', 'writer', 'report.fodt', report, 'The quarterly numbers'),
  office('impress', 'impress', 'slides.fodp', slides, 'Deskpilot slides'),
  // The 10,000-row sheet of bench:apps' scale table: its visible range only.
  calcSheetApp(10_000),
];
