/**
 * A generated spreadsheet for LibreOffice Calc, and the app entry that opens it: a header row
 * (Name, Revenue, Cost) over `rows` rows of people and figures, written as flat ODF (.fods),
 * which Calc opens with no import dialog. Used by calc.test.ts and bench:apps' scale table, so a
 * 10,000-row sheet and an empty one are read the same way.
 *   writeSheet(path, 10_000)     calcSheetApp(10_000)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { walk } from '../../src/core/ui/tree-index';
import { seedOfficeProfile } from './office-profile';
import type { ToolkitApp } from './toolkit-apps';

export const SHEET_HEADERS = ['Name', 'Revenue', 'Cost'] as const;

/** The figures of row `n` (1-based, under the header): deterministic, so a check knows them. */
export function sheetRow(n: number): [string, number, number] {
  return [`Person ${n}`, (n * 37) % 1000, (n * 11) % 100];
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="Sheet1">`;
const TAIL = '</table:table></office:spreadsheet></office:body></office:document>\n';

const text = (value: string): string => `<table:table-cell office:value-type="string"><text:p>${value}</text:p></table:table-cell>`;
const figure = (value: number): string => `<table:table-cell office:value-type="float" office:value="${value}"><text:p>${value}</text:p></table:table-cell>`;

/** The sheet as flat ODF: the header row, then `rows` rows (0 gives a sheet of headers only). */
export function sheetFods(rows: number): string {
  const out = [HEAD, `<table:table-row>${SHEET_HEADERS.map(text).join('')}</table:table-row>`];
  for (let n = 1; n <= rows; n += 1) {
    const [name, revenue, cost] = sheetRow(n);
    out.push(`<table:table-row>${text(name)}${figure(revenue)}${figure(cost)}</table:table-row>`);
  }
  out.push(TAIL);
  return out.join('\n');
}

export function writeSheet(file: string, rows: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, sheetFods(rows));
  return file;
}

/** Calc opening a generated sheet of `rows` rows, with a private profile under the session's HOME. */
export function calcSheetApp(rows: number): ToolkitApp {
  const file = (home: string): string => path.join(home, `sheet-${rows}.fods`);
  return {
    name: `calc-${rows}`,
    toolkit: 'LibreOffice (GTK 3)',
    binary: '/usr/bin/soffice',
    args: (home) => [`-env:UserInstallation=file://${path.join(home, 'libreoffice-sheets')}`, '--norestore', '--nologo', '--nodefault', '--calc', file(home)],
    knownText: SHEET_HEADERS[1],
    prepare: (home) => {
      writeSheet(file(home), rows);
      seedOfficeProfile(path.join(home, 'libreoffice-sheets'));
    },
    action: {
      describe: 'type 7 and Return into cell D2',
      target: (root) => [...walk(root)].find((node) => node.role === 'cell' && node.name === 'D2'),
      request: (node) => ({ action: 'type', id: node.id, text: '7\n' }),
      landed: (records) => records.some((record) => record.role === 'table cell' && record.name === 'D2' && (record.text ?? '') === '7'),
    },
  };
}
