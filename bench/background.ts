/**
 * npm run bench:background — Deskpilot working beside the user, in the manner of Peekaboo's
 * background harness. A sentinel window stands for the user's own app; a simulated user types
 * into it through XTest at a steady rate while the engine runs a mix of actions on apps of
 * several toolkits. Counted: actions that completed silently (no pointer, keyboard or window
 * stack touched), pointer moves, focus changes of the sentinel, keystrokes the sentinel lost,
 * and keystrokes it got that the user never typed. One row per toolkit, then the summary line.
 */
import type { UiActionResult } from '../src/shared/ui-action';
import { startDesktop } from '../test/linux/desktop';
import { TOOLKITS, type Toolkit } from './background/mix';
import { USER_KEY, startSentinel, startUser, watch, type Watcher } from './background/watch';

interface Row {
  toolkit: string;
  actions: number;
  silent: number;
  failed: number;
  pointerMoves: number;
  focusSteals: number;
  routes: Map<string, number>;
  note: string;
  /** What each action that was not silent was, and what it took. */
  loud: string[];
}

function requestOf(result: UiActionResult, kind: string): string {
  return `${kind} on ${result.nodeBefore?.role ?? 'the app'} "${(result.nodeBefore?.name ?? '').slice(0, 30)}"`;
}

/** After the last action, keys still in flight get this long to arrive. */
const DRAIN_MS = 1000;

async function runToolkit(desktop: Awaited<ReturnType<typeof startDesktop>>, toolkit: Toolkit, pids: number[], watcher: Watcher): Promise<Row> {
  const row: Row = { toolkit: toolkit.name, actions: 0, silent: 0, failed: 0, pointerMoves: 0, focusSteals: 0, routes: new Map(), note: '', loud: [] };
  for (const step of toolkit.steps) {
    const pid = pids[step.app] as number;
    let result: UiActionResult;
    try {
      const request = step.request((await desktop.engine.observe(pid, { fresh: true })).root);
      if (request === undefined) {
        row.failed += 1;
        row.note ||= `no node for a ${step.kind} step`;
        continue;
      }
      watcher.mark();
      result = await desktop.engine.run(pid, request);
    } catch (error) {
      row.failed += 1;
      row.note ||= String(error instanceof Error ? error.message : error).slice(0, 80);
      continue;
    }
    // The watcher polls every 20 ms: a last look after the action catches a late move.
    await new Promise((resolve) => setTimeout(resolve, 60));
    const seen = watcher.mark();
    row.actions += 1;
    if (!result.success) {
      row.failed += 1;
      row.note ||= `${result.error?.code ?? ''} ${result.error?.message ?? ''}`.slice(0, 80);
    }
    const route = `${result.method ?? 'none'}:${result.via ?? '?'}`;
    row.routes.set(route, (row.routes.get(route) ?? 0) + 1);
    row.pointerMoves += seen.pointerMoves;
    row.focusSteals += seen.focusChanges;
    if (result.success && result.interrupted !== true && seen.pointerMoves === 0 && seen.focusChanges === 0) row.silent += 1;
    else if (result.success)
      row.loud.push(
        `${JSON.stringify(requestOf(result, step.kind))} via ${route}${seen.pointerMoves > 0 ? ' moved the pointer' : ''}${seen.focusChanges > 0 ? ' took the focus' : ''}`,
      );
  }
  return row;
}

/** `--only <text>` (or BENCH_ONLY) runs the toolkits whose row name contains the text, case-insensitive: one row in a fraction of the time. */
function selected(): Toolkit[] {
  const at = process.argv.indexOf('--only');
  const only = (at >= 0 ? process.argv[at + 1] : process.env['BENCH_ONLY'])?.toLowerCase();
  return only === undefined || only === '' ? TOOLKITS : TOOLKITS.filter((toolkit) => toolkit.name.toLowerCase().includes(only));
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  const rows: Row[] = [];
  try {
    // Every app starts before the user does: a window that maps takes the focus, and that is the app's doing, not ours.
    const started: { toolkit: Toolkit; pids: number[] | undefined; error?: string }[] = [];
    for (const toolkit of selected()) {
      try {
        started.push({ toolkit, pids: await toolkit.start(desktop) });
      } catch (error) {
        started.push({ toolkit, pids: undefined, error: String(error instanceof Error ? error.message : error).slice(0, 100) });
      }
    }
    const sentinel = await startSentinel(desktop);
    const watcher = watch(desktop.platform, sentinel);
    const user = startUser(desktop);
    try {
      for (const { toolkit, pids, error } of started) {
        if (pids === undefined) {
          rows.push({
            toolkit: toolkit.name,
            actions: 0,
            silent: 0,
            failed: toolkit.steps.length,
            pointerMoves: 0,
            focusSteals: 0,
            routes: new Map(),
            note: `did not start: ${error ?? ''}`,
            loud: [],
          });
          continue;
        }
        rows.push(await runToolkit(desktop, toolkit, pids, watcher));
      }
    } finally {
      await user.stop();
      await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
      watcher.stop();
    }
    const sent = user.sent();
    const received = sentinel.keys.filter((key) => key === USER_KEY).length;
    const stray = sentinel.keys.length - received;
    const lost = Math.max(0, sent - received);
    console.log('toolkit                      actions silent failed pointer focus  routes');
    for (const row of rows) {
      const routes = [...row.routes].map(([route, count]) => `${route}=${count}`).join(' ');
      console.log(
        `${row.toolkit.padEnd(28)} ${String(row.actions).padStart(7)} ${String(row.silent).padStart(6)} ${String(row.failed).padStart(6)} ${String(row.pointerMoves).padStart(7)} ${String(row.focusSteals).padStart(5)}  ${routes}${row.note === '' ? '' : `  (${row.note})`}`,
      );
    }
    for (const row of rows) for (const loud of row.loud) console.log(`  not silent (${row.toolkit}): ${loud}`);
    const total = (pick: (row: Row) => number): number => rows.reduce((sum, row) => sum + pick(row), 0);
    console.log(`user typed ${sent} keys; the sentinel got ${received} of them, lost focus ${sentinel.focusOuts} times`);
    console.log(
      `background: actions=${total((row) => row.actions)} silent=${total((row) => row.silent)} pointer_moves=${total((row) => row.pointerMoves)} focus_steals=${total((row) => row.focusSteals)} lost_keys=${lost} stray_keys=${stray}`,
    );
  } finally {
    await desktop.stop();
  }
}

await main();
