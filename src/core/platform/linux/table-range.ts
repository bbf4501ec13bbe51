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
  const cells = await mapLimit(wanted, CONCURRENCY, async ([row, column]) => {
    const [cell] = await client.call(table, IFACE.table, 'GetAccessibleAt', 'ii', [row, column]);
    return { ref: cell as ObjectRef, row, column };
  });
  return cells.filter((cell) => cell.ref[1] !== '' && !cell.ref[1].endsWith('/null'));
}

/** A spreadsheet-style address: column 0, row 0 is A1; column 26 is AA. */
export function cellAddress(row: number, column: number): string {
  let letters = '';
  for (let rest = column + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}
