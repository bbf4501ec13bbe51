/**
 * npm run bench:calc-typing — ms per cell of `type` into LibreOffice Calc cells (a 10,000-row
 * sheet) through the whole engine, as calc.test.ts types them, split into the engine's tree reads
 * (resolve and verify), its sleeps, and the rest. Side by side, the path before cells skipped the
 * window-keys route: the same run preceded by that route's attempt on the cell (keys sent to the
 * window, then read back until it gives up), which is what the engine did first on every cell.
 * The two alternate cell by cell, so both see the same load; `uptime` is printed at start and end.
 *   DESKPILOT_CALC_CELLS=10 npm run bench:calc-typing
 */
import { execFileSync } from 'node:child_process';
import type { UiNode } from '../src/shared/ui-node';
import type { AtspiAccessibility } from '../src/core/platform/linux/accessibility';
import { typeInWindow } from '../src/core/actions/window-typing';
import { walk } from '../src/core/ui/tree-index';
import { calcSheetApp } from '../test/linux/calc-sheet';
import { startDesktop } from '../test/linux/desktop';
import { isInstalled, launchAppProcess } from '../test/linux/toolkit-apps';
import { median, ms, quantile } from './stats';

const CELLS = Math.max(2, Math.min(40, Number(process.env['DESKPILOT_CALC_CELLS'] ?? 10)));
const app = calcSheetApp(10_000);
const load = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();

/** Wraps an object's async method to add its time to `spent[label]`; returns nothing to undo (the desktop is thrown away). */
function meter(target: object, method: string, label: string, spent: Record<string, number>): void {
  const holder = target as Record<string, unknown>;
  const original = holder[method];
  if (typeof original !== 'function') return;
  holder[method] = async (...args: unknown[]): Promise<unknown> => {
    const started = performance.now();
    try {
      return await (original as (...given: unknown[]) => Promise<unknown>).apply(target, args);
    } finally {
      spent[label] = (spent[label] ?? 0) + performance.now() - started;
    }
  };
}

async function main(): Promise<void> {
  if (!isInstalled(app)) throw new Error('LibreOffice Calc is not installed');
  console.log(`load at start: ${load()}`);
  const desktop = await startDesktop({ openbox: true });
  const launched = await launchAppProcess(desktop, app);
  try {
    const { pid } = launched;
    const accessibility = desktop.platform.accessibility as AtspiAccessibility;
    const spent: Record<string, number> = {};
    meter(accessibility, 'getTree', 'tree', spent);
    meter(accessibility, 'readSubtree', 'subtree', spent);
    meter(desktop.engine.clock, 'sleep', 'sleep', spent);
    const cells = new Map<string, UiNode>();
    for (const node of walk((await desktop.engine.observe(pid, { fresh: true })).root)) if (node.role === 'cell') cells.set(node.name, node);
    const rows: Record<'before' | 'after', { total: number[]; tree: number[]; sleep: number[]; full: number[] }> = {
      before: { total: [], tree: [], sleep: [], full: [] },
      after: { total: [], tree: [], sleep: [], full: [] },
    };
    for (let index = 0; index < CELLS; index += 1) {
      const address = `E${index + 2}`;
      const node = cells.get(address);
      if (node === undefined) throw new Error(`no cell ${address} in the visible range`);
      const path = index % 2 === 0 ? 'after' : 'before';
      for (const key of Object.keys(spent)) spent[key] = 0;
      const fullBefore = accessibility.mirrorStats.fullReads;
      const started = performance.now();
      // The old first try, where the engine made it (after insertText declines, before the keyboard):
      // keys sent to the window and read back, given up on after its bound.
      const insertText = accessibility.insertText.bind(accessibility);
      if (path === 'before') {
        accessibility.insertText = async (ref: unknown, target: UiNode, text: string): Promise<boolean> => {
          if (await insertText(ref, target, text)) return true;
          // The route now declines cells by role; asked as for any other element, it runs as it did.
          const sent = await typeInWindow(desktop.platform, desktop.engine.clock, pid, ref, { ...target, role: 'textfield' }, text);
          if (sent !== undefined) throw new Error('the window took the keys: the before path is not what it was');
          return false;
        };
      }
      const result = await desktop.engine.run(pid, { action: 'type', id: node.id, text: `${index}\n` });
      const total = performance.now() - started;
      accessibility.insertText = insertText;
      if (!result.success || result.nodeAfter?.value !== String(index)) throw new Error(`${address}: ${JSON.stringify(result.error ?? result.nodeAfter)}`);
      const row = rows[path];
      row.total.push(total);
      row.tree.push((spent['tree'] ?? 0) + (spent['subtree'] ?? 0));
      row.sleep.push(spent['sleep'] ?? 0);
      row.full.push(accessibility.mirrorStats.fullReads - fullBefore);
    }
    for (const path of ['before', 'after'] as const) {
      const row = rows[path];
      console.log(
        `${path.padEnd(6)} cells=${row.total.length} ms_per_cell median=${ms(median(row.total))} p95=${ms(quantile(row.total, 0.95))}` +
          `  reads_ms=${ms(median(row.tree))} sleeps_ms=${ms(median(row.sleep))} full_reads_per_cell=${ms(median(row.full))}`,
      );
    }
    const ratio = median(rows.after.total) / median(rows.before.total);
    console.log(`mirror fallbacks: ${JSON.stringify(accessibility.mirrorStats.fallbacks)}`);
    console.log(`calc typing: ms_per_cell=${ms(median(rows.after.total))} before_ms_per_cell=${ms(median(rows.before.total))} ratio=${ratio.toFixed(2)}`);
  } finally {
    launched.child.kill('SIGTERM');
    await desktop.stop();
    console.log(`load at end: ${load()}`);
  }
}

await main();
