import { describe, expect, it } from 'vitest';
import { IFACE, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { cellAddress, labelRangeCell, visibleCells } from './table-range';

const BUS = ':1.9';
const TABLE: ObjectRef = [BUS, '/table'];
const NULL: ObjectRef = [BUS, '/org/a11y/atspi/null'];

interface Sheet {
  /** Cell text by row and column; absent is empty. */
  text: (row: number, column: number) => string;
  /** The Table interface's own headers, where the app gives them. */
  rowDescription?: (row: number) => string;
  columnDescription?: (column: number) => string;
  /** Rows and columns on screen (the corners GetAccessibleAtPoint finds). */
  visible: { rows: [number, number]; columns: [number, number] };
}

/** A fake accessibility bus holding one huge table: 2^20 rows, 2^14 columns, cells made on demand. */
function fakeClient(sheet: Sheet): { client: AtspiClient; calls: string[] } {
  const calls: string[] = [];
  const COLUMNS = 16_384;
  const cellPath = (row: number, column: number): string => `/cell/${row}/${column}`;
  const position = (path: string): [number, number] => path.split('/').slice(2).map(Number) as [number, number];
  const call = (target: ObjectRef, iface: string, member: string, _signature?: string, body: unknown[] = []): Promise<unknown[]> => {
    calls.push(member);
    const [a = 0, b = 0] = body as number[];
    if (iface === IFACE.component && member === 'GetExtents') return Promise.resolve([[0, 0, 1000, 600]]);
    if (iface === IFACE.component && member === 'GetAccessibleAtPoint') {
      const corner = a < 500 ? 0 : 1;
      return Promise.resolve([[BUS, cellPath(sheet.visible.rows[corner], sheet.visible.columns[corner])]]);
    }
    if (member === 'GetIndexInParent') {
      const [row, column] = position(target[1]);
      return Promise.resolve([row * COLUMNS + column]);
    }
    if (member === 'GetRowAtIndex') return Promise.resolve([Math.floor(a / COLUMNS)]);
    if (member === 'GetColumnAtIndex') return Promise.resolve([a % COLUMNS]);
    if (member === 'GetAccessibleAt') return Promise.resolve([[BUS, cellPath(a, b)]]);
    if (member === 'GetRowDescription') return Promise.resolve([sheet.rowDescription?.(a) ?? '']);
    if (member === 'GetColumnDescription') return Promise.resolve([sheet.columnDescription?.(a) ?? '']);
    if (member === 'GetRowHeader' || member === 'GetColumnHeader') return Promise.resolve([NULL]);
    if (member === 'GetText') {
      const [row, column] = position(target[1]);
      // As LibreOffice does: '' for a range that ends past the text.
      const text = sheet.text(row, column);
      return Promise.resolve([b > text.length ? '' : text.slice(a, b)]);
    }
    return Promise.reject(new Error(`unexpected ${iface}.${member}`));
  };
  const property = (target: ObjectRef, _iface: string, name: string): Promise<unknown> => {
    calls.push(name);
    if (name === 'CharacterCount') return Promise.resolve(sheet.text(...position(target[1])).length);
    if (name === 'Name') return Promise.resolve(target[1].startsWith('/cell/') ? cellAddress(...position(target[1])) : '');
    return Promise.reject(new Error(`unexpected property ${name}`));
  };
  return { client: { call, property } as unknown as AtspiClient, calls };
}

const people = (row: number, column: number): string => {
  if (row === 0) return ['Name', 'Revenue', 'Cost'][column] ?? '';
  if (column === 0) return `Person ${row}`;
  return column < 3 ? String(row * 7 + column) : '';
};

describe('visibleCells', () => {
  it("labels a sheet's cells by its first row and column when the app gives no headers (LibreOffice Calc)", async () => {
    const { client, calls } = fakeClient({ text: people, visible: { rows: [5000, 5019], columns: [0, 5] } });
    const cells = await visibleCells(client, TABLE);
    expect(cells).toHaveLength(20 * 6);
    const at = (address: string) => cells.find((cell) => cell.address === address);
    // Scrolled 5,000 rows down, the headers are still the sheet's top row's.
    expect(at('B5001')?.headers).toBe('column: Revenue; row: Person 5000');
    expect(at('A5001')?.headers).toBe('column: Name');
    // An empty column head labels nothing; the row's label still does.
    expect(at('E5001')?.headers).toBe('row: Person 5000');
    // Never the sheet's children: every cell is asked for by its row and column.
    expect(calls).not.toContain('GetChildren');
    expect(calls.filter((member) => member === 'GetAccessibleAt').length).toBeLessThan(200);
  });

  it('takes the headers the Table interface gives, asking once per visible row and column', async () => {
    const { client, calls } = fakeClient({
      text: () => '',
      rowDescription: (row) => `R${row}`,
      columnDescription: (column) => `Col ${column}`,
      visible: { rows: [0, 2], columns: [0, 1] },
    });
    const cells = await visibleCells(client, TABLE);
    expect(cells.find((cell) => cell.address === 'B2')?.headers).toBe('column: Col 1; row: R1');
    expect(calls.filter((member) => member === 'GetColumnDescription')).toHaveLength(1 + 2);
  });

  it('leaves figures out of the headers, and bounds and flattens hostile header text', async () => {
    const figures = (row: number, column: number): string => (row === 0 && column === 1 ? `Total\n${'x'.repeat(500)}` : String(row + column));
    const { client } = fakeClient({ text: figures, visible: { rows: [1, 3], columns: [0, 2] } });
    const cells = await visibleCells(client, TABLE);
    const headers = cells.find((cell) => cell.address === 'B2')?.headers ?? '';
    expect(headers.startsWith('column: Total x')).toBe(true);
    expect(headers.length).toBeLessThan(80);
    expect(headers).not.toContain('\n');
    expect(cells.find((cell) => cell.address === 'C2')?.headers).toBeUndefined();
  });
});

describe('labelRangeCell', () => {
  it("names an unnamed cell by its address and describes it by its headers, never over the app's own", () => {
    const item = { name: '', description: '' };
    labelRangeCell(item, { ref: [BUS, '/c'], row: 1, column: 1, address: 'B2', headers: 'column: Revenue' });
    expect(item).toEqual({ name: 'B2', description: 'column: Revenue' });
    const own = { name: 'Total', description: 'the sum' };
    labelRangeCell(own, { ref: [BUS, '/c'], row: 1, column: 1, address: 'B2', headers: 'column: Revenue' });
    expect(own).toEqual({ name: 'Total', description: 'the sum' });
  });
});
