/**
 * LibreOffice Calc on a generated sheet of 10,000 rows: the visible range is read through the
 * Table interface (never the sheet's 2^31 children), each cell named by its address and
 * described by its column's and row's headers; a cell is found by address and by content;
 * typing into 20 cells in a row lands every time and is verified by reading the cell back,
 * with python3-pyatspi as an independent witness, and patched into the event-fed mirror without a
 * whole read; set_value puts text into a cell; an element whose object LibreOffice dropped between
 * the engine's read and its act is acted on once, at its new object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectGone } from '../../src/shared/errors';
import type { UiNode } from '../../src/shared/ui-node';
import type { AtspiRef } from '../../src/core/platform/linux/client';
import { buildTree } from '../../src/core/ui/ids';
import { isProcessAlive } from '../../src/core/platform/process';
import { findNodes } from '../../src/core/ui/query';
import { walk } from '../../src/core/ui/tree-index';
import { calcSheetApp, sheetRow } from './calc-sheet';
import { startDesktop, type Desktop } from './desktop';
import { hasHeadlessTools } from './session';
import { OUTSIDE_MENUS, isInstalled, launchAppProcess, pyatspiRead } from './toolkit-apps';
import { compareTrees, fullTree, mirrorStats, mirrorTree } from './mirror-compare';

const ROWS = 10_000;
const app = calcSheetApp(ROWS);
const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && isInstalled(app);
/** The range read is one screenful, whatever the sheet holds (table-range.ts's bound). */
const MAX_RANGE_CELLS = 600;
const TYPED_CELLS = 20;

describe.skipIf(!run)('LibreOffice Calc, a sheet of 10,000 rows', () => {
  let desktop: Desktop;
  let pid: number;

  beforeAll(async () => {
    // A new desktop and a worker of its own (not leaseDesktop): "types into 20 cells" failed with
    // NODE_NOT_FOUND in 2 of 6 whole runs on the shared desktop (0 of 5 without), cause not found.
    // It fails the same way on a desktop of its own at load 17-25 (the typed cell's object is gone,
    // UnknownObject, between resolve and execute; or the mirror is 11 nodes short): 5 of 6 runs at
    // 748347c. So load, more than the shared desktop, is what it meets. The 11 nodes were a miss, not
    // an update in flight (they stayed through 50 s of comparisons every 0.5-2 s); fixed in mirror.ts's asFetched.
    desktop = await startDesktop({ openbox: true });
    pid = (await launchAppProcess(desktop, app)).pid;
  }, 180_000);

  // The session ends LibreOffice with everything else it started, all with one SIGTERM. Signalling
  // the launcher first cost 2 s: oosplash outlives a second SIGTERM that comes while it is already
  // stopping, until stop() gives up on it and kills it (2.0 s against 0.1 s, measured).
  afterAll(async () => desktop?.stop());

  const cells = async (): Promise<Map<string, UiNode>> => {
    const found = new Map<string, UiNode>();
    for (const node of walk((await desktop.engine.observe(pid, { fresh: true })).root)) if (node.role === 'cell') found.set(node.name, node);
    return found;
  };

  it('reads the visible range with addresses and headers, and finds cells by address and content', async () => {
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    const range = [...walk(root)].filter((node) => node.role === 'cell');
    expect(range.length).toBeGreaterThan(20);
    expect(range.length).toBeLessThanOrEqual(MAX_RANGE_CELLS);
    const byName = new Map(range.map((node) => [node.name, node]));
    const [name, revenue] = sheetRow(2);
    expect(byName.get('B3')?.value).toBe(String(revenue));
    expect(byName.get('B3')?.description).toBe(`column: Revenue; row: ${name}`);
    expect(byName.get('A3')?.description).toBe('column: Name');
    expect(findNodes(root, { name: 'A1' })[0]?.node.value).toBe('Name');
    expect(findNodes(root, { text: name }).map((match) => match.node.name)).toContain('A3');
    expect(isProcessAlive(pid)).toBe(true);
  }, 120_000);

  it(`types into ${TYPED_CELLS} cells in a row: each lands, is reported changed, and reads back`, async () => {
    // Ids hash the address, not the content: one read gives the ids of all the cells typed into.
    const before = await cells();
    const stats = mirrorStats(desktop.platform);
    const [fullReads, unknown] = [stats.fullReads, stats.fallbacks['unknown-node']];
    for (let index = 0; index < TYPED_CELLS; index += 1) {
      const address = `D${index + 2}`;
      const text = String(500 + index);
      const target = before.get(address);
      expect(target, address).toBeDefined();
      const result = await desktop.engine.run(pid, { action: 'type', id: (target as UiNode).id, text: `${text}\n` });
      expect(result.success, `${address}: ${JSON.stringify(result.error)}`).toBe(true);
      // The engine's own read-back of the cell, after it waited for the text rather than the focus.
      expect(result.nodeAfter?.value, `${address}: ${result.changes.join('; ')}`).toBe(text);
    }
    const after = await cells();
    for (let index = 0; index < TYPED_CELLS; index += 1) expect(after.get(`D${index + 2}`)?.value).toBe(String(500 + index));
    // Each edit is patched into the event-fed mirror, not read whole: LibreOffice's sidebar rebuilds a
    // hidden panel on every edit, and the nodes it makes and throws away are placed, not taken as missed.
    expect(stats.fallbacks['unknown-node'] - unknown, JSON.stringify(stats.fallbacks)).toBe(0);
    expect(stats.fullReads - fullReads, JSON.stringify(stats.fallbacks)).toBeLessThanOrEqual(2);
    // An independent witness: pyatspi reads the sheet's top-left cells through the Table interface (and the
    // app outside its menus, which hold no cell).
    const records = (await pyatspiRead(desktop.session.env, pid, 1, OUTSIDE_MENUS)).records;
    for (let index = 0; index < 9; index += 1) {
      const address = `D${index + 2}`;
      expect(records.find((record) => record.role === 'table cell' && record.name === address)?.text, address).toBe(String(500 + index));
    }
    // And the patched app is the app: its cells, and the menu items whose states it announced (Undo), as a whole read
    // gives them. LibreOffice updates its toolbars and menus on idle after an edit: a difference that is only such an
    // update in flight is gone a moment later, while one the mirror missed stays. The one seen under load ("the mirror
    // lacked 11 empty-name groups") stayed: the window lists 11 groups whose cache rows name detached sidebar panels,
    // and any relist of the window dropped them (load made one in 3 of 8 runs beside stress-ng; a relist forced by a
    // synthetic children-changed, 2 of 2). A miss, which fails here still; mirror.test.ts holds the mechanism.
    const differences = async (): Promise<string[]> => compareTrees(await mirrorTree(desktop.platform, pid), await fullTree(desktop.platform, pid));
    let missed = await differences();
    if (missed.length > 0) missed = await new Promise((resolve) => setTimeout(resolve, 1000)).then(differences);
    expect(missed).toEqual([]);
  }, 600_000);

  it('sets text into a cell, which has no EditableText, and reads it back', async () => {
    const target = (await cells()).get('E2') as UiNode;
    const result = await desktop.engine.run(pid, { action: 'set_value', id: target.id, value: 'Checked' });
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    expect(result.nodeAfter?.value).toBe('Checked');
    expect((await cells()).get('E2')?.value).toBe('Checked');
  }, 120_000);

  it('acts once on the new object of an element whose object LibreOffice dropped between the read and the act', async () => {
    // Every edit makes LibreOffice rebuild its sidebar's tab bar: the old toolbars and toggle buttons
    // answer UnknownObject from then on, and the same ids come back at new objects (measured: 15 of
    // 2,468 nodes after one typed cell). The edit is made right after the engine's own read, so the
    // object it resolved is gone when it acts, as under load a cell's was.
    const accessibility = desktop.platform.accessibility;
    const isDefault = accessibility.isDefault?.bind(accessibility);
    if (isDefault === undefined) throw new Error('the AT-SPI backend asks IS_DEFAULT of a node');
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    const navigator = [...walk(root)].find((node) => node.role === 'toolbar' && node.name === 'Navigator');
    const tab = navigator === undefined ? undefined : [...walk(navigator)].find((node) => node.role === 'togglebutton');
    expect(tab, 'the sidebar tab bar has a Navigator tab').toBeDefined();
    const target = tab as UiNode;
    expect(target.states.checked).toBe(false);
    // The edit goes to the cell under the cursor: F2, away from the cells checked above.
    // Its id from the read above: ids hash the address, so no second whole read is needed for it.
    const cell = [...walk(root)].find((node) => node.role === 'cell' && node.name === 'F2');
    await desktop.engine.run(pid, { action: 'click', id: cell?.id });
    const log: string[] = [];
    const press = accessibility.press.bind(accessibility);
    accessibility.press = async (ref, node) => {
      const path = (ref as AtspiRef).path;
      try {
        const done = await press(ref, node);
        log.push(`press ${path}`);
        return done;
      } catch (error) {
        log.push(`press ${path} ${isObjectGone(error) ? 'gone' : String(error)}`);
        throw error;
      }
    };
    const getTree = accessibility.getTree.bind(accessibility);
    let armed = true;
    accessibility.getTree = async (readPid, options) => {
      const tree = await getTree(readPid, options);
      if (!armed) return tree;
      armed = false;
      const resolved = buildTree(tree).refs.get(target.id);
      await desktop.platform.input.typeText('1\n');
      for (let look = 0; look < 50; look += 1) {
        if (await isDefault(resolved, target).then(() => false, isObjectGone)) {
          log.push(`dropped ${(resolved as AtspiRef).path}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return tree;
    };
    try {
      const result = await desktop.engine.run(pid, { action: 'click', id: target.id });
      expect(log[0], 'LibreOffice dropped the resolved object after an edit').toMatch(/^dropped /);
      const dropped = (log[0] as string).slice('dropped '.length);
      // One try on the dropped object, which reached nothing; one press on the new object.
      expect(log.slice(1, 2)).toEqual([`press ${dropped} gone`]);
      expect(log.slice(2)).toHaveLength(1);
      expect(log[2]).toMatch(/^press \S+$/);
      expect(log[2]).not.toBe(`press ${dropped}`);
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true });
      expect(result.nodeAfter?.states.checked).toBe(true);
    } finally {
      accessibility.press = press;
      accessibility.getTree = getTree;
    }
  }, 120_000);
});
