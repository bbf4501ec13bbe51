import { COORD_SCREEN, IFACE, STATE, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { mapLimit } from './pool';
import { hasState } from './states';

/**
 * Containers whose children are made on demand (MANAGES_DESCENDANTS: a Calc sheet claims
 * 2^31 - 1 cells, and listing them sends LibreOffice to 100% CPU and gigabytes of memory)
 * are never enumerated past this many children; a GTK 3 tree view's few hundred cells are.
 */
export const MAX_ENUMERATED_CHILDREN = 1000;

/** Most rows and columns of a visible range read, and most cells in all: a screenful, not a sheet. */
const MAX_ROWS = 60;
const MAX_COLUMNS = 30;
const MAX_CELLS = 600;
const CONCURRENCY = 48;

interface Sized {
  childCount: number;
  states: number[];
}

/** Whether listing a node's children would ask the app to build more objects than any read can use. */
export function isHugeContainer(item: Sized): boolean {
  if (item.childCount > MAX_ENUMERATED_CHILDREN) return true;
  // A count of -1 (unknown) from such a container may hide any number.
  return hasState(item.states, STATE.MANAGES_DESCENDANTS) && (item.childCount < 0 || item.childCount > MAX_ENUMERATED_CHILDREN / 4);
}

/** A cell of the visible range, in reading order (row by row). */
export interface RangeCell {
  ref: ObjectRef;
  row: number;
  column: number;
  /** Its spreadsheet address, `A1`: the name of a cell the app leaves unnamed. */
  address: string;
  /** Its column's and row's header text (`column: Revenue; row: Alice`), where there is any. */
  headers?: string;
}

async function cellPosition(client: AtspiClient, table: ObjectRef, cell: ObjectRef): Promise<[number, number]> {
  const [[index]] = [await client.call(cell, IFACE.accessible, 'GetIndexInParent')];
  const [[row], [column]] = await Promise.all([
    client.call(table, IFACE.table, 'GetRowAtIndex', 'i', [index]),
    client.call(table, IFACE.table, 'GetColumnAtIndex', 'i', [index]),
  ]);
  return [Number(row), Number(column)];
}

/** The first and last visible row and column: the cells at the table's top-left and bottom-right corners. */
async function visibleRange(client: AtspiClient, table: ObjectRef): Promise<{ rows: [number, number]; columns: [number, number] } | undefined> {
  const [extents] = await client.call(table, IFACE.component, 'GetExtents', 'u', [COORD_SCREEN]);
  const [x, y, width, height] = extents as number[];
  if (x === undefined || y === undefined || width === undefined || height === undefined || width <= 4 || height <= 4) return undefined;
  const at = async (px: number, py: number): Promise<[number, number] | undefined> => {
    const [cell] = await client.call(table, IFACE.component, 'GetAccessibleAtPoint', 'iiu', [px, py, COORD_SCREEN]);
    const ref = cell as ObjectRef;
    if (ref[1] === '' || ref[1].endsWith('/null')) return undefined;
    return cellPosition(client, table, ref);
  };
  const [first, last] = await Promise.all([at(x + 2, y + 2), at(x + width - 3, y + height - 3)]);
  if (first === undefined || last === undefined) return undefined;
  return { rows: [first[0], Math.max(first[0], last[0])], columns: [first[1], Math.max(first[1], last[1])] };
}

/**
 * The cells a person sees of a huge table, through the Table interface: the range between
 * the cells at its visible corners, or its top-left corner when the app cannot say, bounded.
 */
export async function visibleCells(client: AtspiClient, table: ObjectRef): Promise<RangeCell[]> {
  const range = await visibleRange(client, table).catch(() => undefined);
  let rows: [number, number];
  let columns: [number, number];
  if (range === undefined) {
    const [rowCount, columnCount] = await Promise.all([client.property(table, IFACE.table, 'NRows'), client.property(table, IFACE.table, 'NColumns')]);
    rows = [0, Math.min(Number(rowCount), 20) - 1];
    columns = [0, Math.min(Number(columnCount), 10) - 1];
  } else ({ rows, columns } = range);
  const lastColumn = Math.min(columns[1], columns[0] + MAX_COLUMNS - 1);
  const width = lastColumn - columns[0] + 1;
  const lastRow = Math.min(rows[1], rows[0] + MAX_ROWS - 1, rows[0] + Math.floor(MAX_CELLS / Math.max(1, width)) - 1);
  const wanted: [number, number][] = [];
  for (let row = rows[0]; row <= lastRow; row += 1) for (let column = columns[0]; column <= lastColumn; column += 1) wanted.push([row, column]);
  const [cells, headers] = await Promise.all([
    mapLimit(wanted, CONCURRENCY, async ([row, column]) => {
      const [cell] = await client.call(table, IFACE.table, 'GetAccessibleAt', 'ii', [row, column]);
      return { ref: cell as ObjectRef, row, column };
    }),
    rangeHeaders(client, table, rows[0], lastRow, columns[0], lastColumn).catch(() => ({
      rows: new Map<number, string>(),
      columns: new Map<number, string>(),
    })),
  ]);
  return cells
    .filter((cell) => !isNull(cell.ref))
    .map((cell) => {
      // The label cells themselves are not labelled by their own text.
      const words = [cell.row === 0 ? undefined : headers.columns.get(cell.column), cell.column === 0 ? undefined : headers.rows.get(cell.row)];
      const said = [words[0] === undefined ? '' : `column: ${words[0]}`, words[1] === undefined ? '' : `row: ${words[1]}`].filter((word) => word !== '');
      return { ...cell, address: cellAddress(cell.row, cell.column), ...(said.length === 0 ? {} : { headers: said.join('; ') }) };
    });
}

/** Header text is the app's, so hostile: one line, bounded. */
const MAX_HEADER_CHARS = 60;

function isNull(ref: ObjectRef): boolean {
  return ref[1] === '' || ref[1].endsWith('/null');
}

function headerText(text: unknown): string | undefined {
  const line = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return line === '' ? undefined : line.slice(0, MAX_HEADER_CHARS);
}

/** A cell's text, else its name: LibreOffice names a cell by its address and keeps its content in Text; a header object is named. */
async function nodeText(client: AtspiClient, ref: ObjectRef): Promise<string | undefined> {
  if (isNull(ref)) return undefined;
  return (await textOf(client, ref)) ?? headerText(await client.property(ref, IFACE.accessible, 'Name').catch(() => ''));
}

/** A sheet cell's own text, never its name (its address). */
async function cellText(client: AtspiClient, ref: ObjectRef): Promise<string | undefined> {
  if (isNull(ref)) return undefined;
  return textOf(client, ref);
}

/** Text read by its length first: LibreOffice and Qt answer '' for a range that ends past the text. */
async function textOf(client: AtspiClient, ref: ObjectRef): Promise<string | undefined> {
  const count = Number(await client.property(ref, IFACE.text, 'CharacterCount').catch(() => 0));
  if (!Number.isFinite(count) || count <= 0) return undefined;
  const [text] = await client.call(ref, IFACE.text, 'GetText', 'ii', [0, Math.min(count, MAX_HEADER_CHARS * 2)]).catch(() => ['']);
  return headerText(text);
}

/** The table's own header of one row or column: its description, else its header object's name. */
async function ownHeader(client: AtspiClient, table: ObjectRef, kind: 'Row' | 'Column', index: number): Promise<string | undefined> {
  const [description] = await client.call(table, IFACE.table, `Get${kind}Description`, 'i', [index]).catch(() => ['']);
  const said = headerText(description);
  if (said !== undefined) return said;
  const [header] = await client.call(table, IFACE.table, `Get${kind}Header`, 'i', [index]).catch(() => [['', '']]);
  return nodeText(client, header as ObjectRef);
}

/** A sheet's label cell: text that is not a number (a heading over a column of figures, a name before a row of them). */
async function labelCell(client: AtspiClient, table: ObjectRef, row: number, column: number): Promise<string | undefined> {
  const [cell] = await client.call(table, IFACE.table, 'GetAccessibleAt', 'ii', [row, column]);
  const text = await cellText(client, cell as ObjectRef);
  return text === undefined || Number.isFinite(Number(text.replace(/[,\s%]/g, ''))) ? undefined : text;
}

/**
 * The row and column headers of the visible range. Through the Table interface where the app
 * gives them (row and column descriptions, header objects: GTK and the browsers do); it is asked
 * for the range's first row and column only, since an app gives headers for all or for none.
 * A sheet gives none (LibreOffice Calc answers '' and no header object), and there the
 * convention every spreadsheet user follows stands in: the sheet's first row labels its
 * columns and its first column labels its rows, when those cells hold words, not figures.
 */
async function rangeHeaders(
  client: AtspiClient,
  table: ObjectRef,
  firstRow: number,
  lastRow: number,
  firstColumn: number,
  lastColumn: number,
): Promise<{ rows: Map<number, string>; columns: Map<number, string> }> {
  const rows = new Map<number, string>();
  const columns = new Map<number, string>();
  const indices = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, offset) => from + offset);
  const [rowOwn, columnOwn] = await Promise.all([ownHeader(client, table, 'Row', firstRow), ownHeader(client, table, 'Column', firstColumn)]);
  const fill = async (target: Map<number, string>, at: number[], read: (index: number) => Promise<string | undefined>): Promise<void> => {
    const texts = await mapLimit(at, CONCURRENCY, (index) => read(index).catch(() => undefined));
    at.forEach((index, position) => {
      const text = texts[position];
      if (text !== undefined) target.set(index, text);
    });
  };
  await Promise.all([
    rowOwn !== undefined
      ? fill(rows, indices(firstRow, lastRow), (row) => ownHeader(client, table, 'Row', row))
      : fill(rows, indices(Math.max(firstRow, 1), lastRow), (row) => labelCell(client, table, row, 0)),
    columnOwn !== undefined
      ? fill(columns, indices(firstColumn, lastColumn), (column) => ownHeader(client, table, 'Column', column))
      : fill(columns, indices(firstColumn, lastColumn), (column) => labelCell(client, table, 0, column)),
  ]);
  return { rows, columns };
}

/** A spreadsheet-style address: column 0, row 0 is A1; column 26 is AA. */
export function cellAddress(row: number, column: number): string {
  let letters = '';
  for (let rest = column + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

/** Names a range cell the app left unnamed by its address, and describes it by its headers unless the app described it. */
export function labelRangeCell(item: { name: string; description: string }, cell: RangeCell): void {
  if (item.name.trim() === '') item.name = cell.address;
  if (cell.headers !== undefined && item.description.trim() === '') item.description = cell.headers;
}
