/**
 * Walked node reads for a bridge whose siblings share what a read would ask each of them
 * (LibreOffice). Its app is the slow side of a read (near 80% of a core while we read), so a
 * call saved is time saved. Measured on LibreOffice 7.4.7.2 (GTK 3 plug-in, at-spi2-atk),
 * bench:office-reads on a sheet, a report and a slide show:
 * - Siblings of one role under one parent have one interface list. The walked nodes are its
 *   menus (GTK 3 menus, whose items the cache leaves out: about 830 of each app's nodes), a
 *   Writer document's paragraphs and a table's cells; children of one parent are made by one
 *   toolkit class per role. A role across parents does differ (a GTK menu item has Selection,
 *   a VCL one Text and Value), so the list is asked once per parent and role, not per role.
 * - A sheet's cells of one visible column are all the same object class: role TABLE_CELL, one
 *   interface list, named by their address ("B2", a comment goes to the Note attribute, not the
 *   name), no description, no children. Their Properties.GetAll also makes LibreOffice compute
 *   each cell's attributes (borders, shadow, note, formula), which the tree never shows. So a
 *   column's first cell is read in full, and where it says exactly that, the column's other
 *   cells are read by their states and text alone; a column whose first cell says anything else
 *   is read in full, cell by cell. (LibreOffice makes a sheet's cell objects again for each read:
 *   new paths each time, the cursor's cell alone kept.)
 * Calls saved are not all time saved: a read here waits on the app's answers level by level, so
 * a parent's first child is read in full (no sibling waits a round trip for its list), and a cell's
 * text comes with its states (the value pass after the walk would ask it last). Measured with
 * bench:office-reads --ab, the two alternated in one run: Calc 7,078 -> 4,736 calls, 718 -> 470 ms.
 */
import { IFACE, ROLE, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { sharedList, type Item } from './item';
import type { RangeCell } from './table-range';
import { accessibleProperties, itemOf, readItem, unlessFrozen } from './tree-items';
import { MAX_TREE_TEXT, wholeText } from './tree-values';
import type { Bridge } from './bridges';

type Limit = <T>(task: () => Promise<T>) => Promise<T>;

export interface SampledReads {
  /** A walked node, its interfaces asked only of the first sibling of its role. */
  node(self: ObjectRef, index: number, parent: string): Promise<Item>;
  /** A cell of a range read, by its states alone where its column's first cell vouches for it. */
  cell(self: ObjectRef, index: number, table: string, cell: RangeCell): Promise<Item>;
}

/** Whether a range cell read in full says what its column's other cells are taken to say. */
function vouches(item: Item, cell: RangeCell): boolean {
  return item.role === ROLE.TABLE_CELL && item.name.trim() === cell.address && item.description === '' && item.childCount === 0;
}

/** One read's sampled node reads; `limit` bounds the calls in flight, and no read waits for a sample while holding a slot. */
export function sampledReads(client: AtspiClient, bridge: Bridge, limit: Limit): SampledReads {
  const lists = new Map<string, Promise<readonly string[]>>();
  const columns = new Map<string, Promise<Item | undefined>>();
  const firsts = new Map<string, Promise<void>>();
  const full = (self: ObjectRef, index: number): Promise<Item> => limit(() => readItem(client, self, index, bridge));
  const interfacesOf = async (self: ObjectRef, key: string): Promise<readonly string[]> => {
    const known = lists.get(key);
    if (known !== undefined) {
      // A sample that failed (its node went away) tells nothing: this node is asked itself.
      const kept = await known.catch(() => undefined);
      if (kept !== undefined) return kept;
    }
    const asked = limit(() => client.call(self, IFACE.accessible, 'GetInterfaces')).then(([list]) => sharedList(list as string[]));
    if (known === undefined) lists.set(key, asked);
    return asked;
  };
  return {
    node: async (self, index, parent) => {
      if (!bridge.siblingInterfaces) return full(self, index);
      const first = firsts.get(parent);
      if (first === undefined) {
        // A parent's first child is read in full: its list comes in the round trip that reads it, so
        // siblings of its role wait for nothing (asking after the role came back costs each level of the walk a round trip).
        const read = full(self, index);
        firsts.set(
          parent,
          read.then(
            (item) => void (lists.has(`${parent} ${item.role}`) || lists.set(`${parent} ${item.role}`, Promise.resolve(item.interfaces))),
            () => undefined,
          ),
        );
        return read;
      }
      const [[role], [states], properties] = await limit(() =>
        Promise.all([
          client.call(self, IFACE.accessible, 'GetRole'),
          client.call(self, IFACE.accessible, 'GetState'),
          accessibleProperties(client, self, bridge),
        ]),
      );
      // Sent before this node's calls, the first child's read has most often come back by now.
      await first;
      return itemOf(self, index, role, states, await interfacesOf(self, `${parent} ${Number(role)}`), properties);
    },
    cell: async (self, index, table, cell) => {
      if (!bridge.rangeColumns) return full(self, index);
      const key = `${table} ${cell.column}`;
      const sample = columns.get(key);
      if (sample === undefined) {
        const read = full(self, index);
        columns.set(
          key,
          read.then(
            (item) => (vouches(item, cell) ? item : undefined),
            () => undefined,
          ),
        );
        return read;
      }
      const model = await sample;
      if (model === undefined) return full(self, index);
      // Its text in the same round trip: read here, it overlaps the reads of the other cells and of
      // the rest of the app, where the value pass after the walk would ask it last, cell after cell.
      const [[states], text] = await limit(() =>
        Promise.all([
          client.call(self, IFACE.accessible, 'GetState'),
          model.interfaces.includes(IFACE.text) ? wholeText(client, self, MAX_TREE_TEXT + 1).catch(unlessFrozen(undefined)) : undefined,
        ]),
      );
      return {
        self,
        index,
        childCount: 0,
        interfaces: model.interfaces,
        name: cell.address,
        role: model.role,
        description: '',
        states: states as number[],
        ...(text === undefined ? {} : { text }),
      };
    },
  };
}
