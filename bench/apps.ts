/**
 * npm run bench:apps — one app per toolkit (Qt 5 and 6, LibreOffice Writer and Calc, Firefox,
 * Chromium, GTK 4), read by Deskpilot and by python3-pyatspi in the same run: nodes, read time,
 * the named share of interactive nodes, the compact tree's tokens, whether the known document
 * text is there, whether the app survived, and whether one action's report matched what an
 * independent read (pyatspi) saw. Apps whose binary is absent are left out, and said so.
 * Then the scale table (bench/apps-scale.ts): generated pages of 500 to 20,000 nodes in Chromium
 * and Firefox and Calc sheets of 10,000 rows and none, ending with its `scale:` line.
 *   npm run bench:apps [-- name ...]     only the apps named (and scale rows whose app starts with a name)
 *   npm run bench:apps -- --no-scale     the apps table alone;  -- --scale   the scale table alone
 */
import { buildTree } from '../src/core/ui/ids';
import { serializeTree } from '../src/core/ui/serialize';
import { estimateTokens } from '../src/core/ui/token-estimate';
import { countNodes } from '../src/core/ui/tree-index';
import { isProcessAlive } from '../src/core/platform/process';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { WHOLE_READ } from '../test/linux/mirror-compare';
import {
  TOOLKIT_APPS,
  isInstalled,
  launchAppProcess,
  ourNamedShare,
  pyatspiNamedShare,
  pyatspiRead,
  treeText,
  type PyatspiRead,
  type ToolkitApp,
  stopAppProcess,
} from '../test/linux/toolkit-apps';
import { runScale, scaleSummary } from './apps-scale';
import { median, ms, timed } from './stats';
import { runMain } from './run-main';

/** Reads in a row for each reader in a round, and rounds: ours and pyatspi's alternate round by round. */
const RUNS = 3;
const ROUNDS = 3;
/** Reads per app for the crash count, as a user's session would make them. */
const READS = 20;

interface Row {
  app: ToolkitApp;
  /** The first whole read of the app in this process (late names and the event subscription included). */
  first: number;
  nodes: number;
  pyNodes: number;
  ours: number;
  pyatspi: number;
  named: number;
  pyNamed: number;
  tokens: number;
  textOk: boolean;
  crashed: boolean;
  /** The action's report disagreed with the independent read: undefined when no action ran. */
  verifyFalse: boolean | undefined;
  note: string;
}

async function measure(desktop: Desktop, app: ToolkitApp): Promise<Row> {
  const { pid, child } = await launchAppProcess(desktop, app);
  try {
    return await measureApp(desktop, app, pid);
  } finally {
    // Each app goes before the next starts: Writer and Calc share a profile, and a running soffice would take Calc's window.
    await stopAppProcess({ pid, child });
  }
}

async function measureApp(desktop: Desktop, app: ToolkitApp, pid: number): Promise<Row> {
  const observe = () => desktop.engine.observe(pid, WHOLE_READ);
  // The first read a process makes of the app (a CLI call's only one), timed on its own.
  const [first = 0] = await timed(1, observe);
  let crashed = false;
  for (let read = 0; read < READS && !crashed; read += 1) {
    await desktop.engine.observe(pid).catch(() => undefined);
    crashed = !isProcessAlive(pid);
  }
  // Ours and pyatspi's dumps alternate, round by round, after the crash count's reads: a freshly
  // launched app is still busy (Firefox ESR answered whole reads in 70-825 ms in its first 1.5 s
  // after its page showed, and in 17 ms after; bench/README.md), and an app's speed drifts even
  // then. Timed in two blocks, Firefox's small page gave 1.6x and 25x in two runs at load 1.5,
  // each block having met the app in another state; rounds put both readers in every state.
  const ourTimes: number[] = [];
  const pyTimes: number[] = [];
  let reference: PyatspiRead | undefined;
  for (let round = 0; round < ROUNDS; round += 1) {
    ourTimes.push(...(await timed(RUNS, observe)));
    reference = await pyatspiRead(desktop.session.env, pid, RUNS);
    pyTimes.push(...reference.runs_ms);
  }
  if (reference === undefined) throw new Error('no round ran');
  const ours = median(ourTimes);
  // Both reads of the tree compared come last and back to back: a page may still be filling in before.
  const { root } = await observe();
  const row: Row = {
    app,
    first,
    nodes: countNodes(root),
    pyNodes: reference.nodes,
    ours,
    pyatspi: median(pyTimes),
    named: ourNamedShare(root).ratio,
    pyNamed: pyatspiNamedShare(reference.records).ratio,
    tokens: estimateTokens(serializeTree(buildTree(await desktop.platform.accessibility.getTree(pid)).root, { style: 'compact' })),
    textOk: treeText(root).includes(app.knownText),
    crashed,
    verifyFalse: undefined,
    note: '',
  };
  const target = app.action.target(root);
  if (target === undefined || crashed) {
    row.note = crashed ? 'crashed' : `no target for "${app.action.describe}"`;
    return row;
  }
  const result = await desktop.engine.run(pid, app.action.request(target)).catch((error: unknown) => ({ success: false, changed: false, error }));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const landed = app.action.landed((await pyatspiRead(desktop.session.env, pid)).records);
  const reported = result.success && result.changed;
  row.verifyFalse = reported !== landed;
  row.note = `${app.action.describe}: reported ${reported ? 'changed' : 'unchanged'}, pyatspi ${landed ? 'saw it' : 'did not'}`;
  row.crashed ||= !isProcessAlive(pid);
  return row;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((arg) => arg !== '--');
  const only = args.filter((arg) => !arg.startsWith('--'));
  const scaleOnly = args.includes('--scale');
  const apps = scaleOnly ? [] : TOOLKIT_APPS.filter((app) => only.length === 0 || only.includes(app.name));
  const desktop = await startDesktop({ openbox: true });
  const rows: Row[] = [];
  let scaleLine = '';
  try {
    process.stdout.write(
      `session up in ${desktop.session.startupMs} ms; ${ROUNDS} alternated rounds of ${RUNS} runs each reader, medians; ${READS} default reads per app for the crash count.\n`,
    );
    for (const app of apps) {
      if (!isInstalled(app)) {
        process.stdout.write(`${app.name.padEnd(18)} skipped: ${app.binary} is not installed\n`);
        continue;
      }
      try {
        const row = await measure(desktop, app);
        rows.push(row);
        process.stdout.write(
          `${app.name.padEnd(18)} ${app.toolkit.padEnd(20)} nodes=${row.nodes}/${row.pyNodes}  read=${ms(row.ours)}/${ms(row.pyatspi)} ms (${(row.pyatspi / row.ours).toFixed(1)}x) first=${ms(row.first)} ms` +
            `  named=${row.named.toFixed(2)}/${row.pyNamed.toFixed(2)}  tokens=${row.tokens}  text=${row.textOk ? 'ok' : 'MISSING'}${row.crashed ? '  CRASHED' : ''}  | ${row.note}\n`,
        );
      } catch (error) {
        process.stdout.write(`${app.name.padEnd(18)} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    if (!args.includes('--no-scale')) {
      const scaleRows = await runScale(desktop, only, (line) => process.stdout.write(line));
      scaleLine = scaleSummary(scaleRows);
    }
  } finally {
    await desktop.stop();
  }
  const crashes = rows.filter((row) => row.crashed).length;
  const minNamedRatio = Math.min(...rows.map((row) => (row.pyNamed === 0 ? 1 : row.named / row.pyNamed)));
  const textOk = rows.filter((row) => row.textOk).length;
  const verifyFalse = rows.filter((row) => row.verifyFalse === true).length;
  if (!scaleOnly)
    process.stdout.write(
      `apps: crashes=${crashes} min_named_ratio=${rows.length === 0 ? 0 : minNamedRatio.toFixed(2)} text_ok=${textOk}/${rows.length} verify_false=${verifyFalse}\n`,
    );
  process.stdout.write(scaleLine);
}

runMain(main, 'bench:apps');
