/**
 * npm run bench:crashes — issue 26's target "0 app crashes in 1,000 reads across the toolkits",
 * measured: the reads are spread evenly over one app per toolkit (Qt 5 and 6, LibreOffice Writer
 * and Calc, Firefox, Chromium, GTK 4), each app started once and read as a user's session reads
 * it (patched from events, every fifth read whole), its process checked after every read. An app
 * whose binary is absent is left out and said so; each app has a time cap, and a read that
 * fails is counted apart from a crash.
 *   npm run bench:crashes [-- --reads N] [-- name ...]
 * Ends with `crashes: reads=<n> crashes=<c> failed_reads=<f>` after one line per app.
 */
import { isProcessAlive } from '../src/core/platform/process';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, type ToolkitApp } from '../test/linux/toolkit-apps';
import { median, ms } from './stats';
import { runMain } from './run-main';

/** No app holds the bench for longer than this; the reads it did not make are said. */
const APP_CAP_MS = 480_000;

interface Tally {
  app: ToolkitApp;
  reads: number;
  failed: number;
  crashed: boolean;
  times: number[];
  firstError: string;
}

function parseArgs(argv: string[]): { reads: number; only: string[] } {
  const args = argv.filter((arg) => arg !== '--');
  const at = args.indexOf('--reads');
  const reads = at >= 0 ? Number(args[at + 1]) : 1000;
  const only = args.filter((arg, index) => !(index === at || index === at + 1));
  return { reads: Number.isFinite(reads) && reads > 0 ? Math.floor(reads) : 1000, only };
}

async function readApp(desktop: Desktop, app: ToolkitApp, reads: number): Promise<Tally> {
  const tally: Tally = { app, reads: 0, failed: 0, crashed: false, times: [], firstError: '' };
  const { pid, child } = await launchAppProcess(desktop, app);
  const started = performance.now();
  try {
    for (let read = 0; read < reads && performance.now() - started < APP_CAP_MS; read += 1) {
      const at = performance.now();
      try {
        await desktop.engine.observe(pid, { fresh: read % 5 === 0 });
      } catch (error) {
        tally.failed += 1;
        tally.firstError ||= error instanceof Error ? error.message.slice(0, 120) : String(error).slice(0, 120);
      }
      tally.times.push(performance.now() - at);
      tally.reads += 1;
      if (!isProcessAlive(pid)) {
        tally.crashed = true;
        break;
      }
    }
  } finally {
    // Each app goes before the next starts: Writer and Calc share a profile.
    child.kill('SIGTERM');
    if (pid !== child.pid && isProcessAlive(pid)) process.kill(pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return tally;
}

async function main(): Promise<void> {
  const { reads, only } = parseArgs(process.argv.slice(2));
  const apps = TOOLKIT_APPS.filter((app) => (only.length === 0 || only.includes(app.name)) && isInstalled(app));
  for (const app of TOOLKIT_APPS) if (!isInstalled(app)) process.stdout.write(`${app.name.padEnd(18)} skipped: ${app.binary} is not installed\n`);
  if (apps.length === 0) throw new Error('no app of the list is installed');
  const desktop = await startDesktop({ openbox: true });
  const tallies: Tally[] = [];
  try {
    process.stdout.write(`${reads} reads over ${apps.length} apps, every fifth read whole, ${APP_CAP_MS / 1000} s cap per app\n`);
    for (const [index, app] of apps.entries()) {
      // The remainder goes to the first apps, so the total is exactly `reads`.
      const share = Math.floor(reads / apps.length) + (index < reads % apps.length ? 1 : 0);
      try {
        const tally = await readApp(desktop, app, share);
        tallies.push(tally);
        process.stdout.write(
          `${app.name.padEnd(18)} ${app.toolkit.padEnd(20)} reads=${tally.reads}/${share} crashed=${tally.crashed ? 'YES' : 'no'} failed_reads=${tally.failed}` +
            ` median_read=${ms(median(tally.times))} ms${tally.firstError === '' ? '' : `  | first failure: ${tally.firstError}`}\n`,
        );
      } catch (error) {
        process.stdout.write(`${app.name.padEnd(18)} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  } finally {
    await desktop.stop();
  }
  const total = tallies.reduce((sum, tally) => sum + tally.reads, 0);
  const crashes = tallies.filter((tally) => tally.crashed).length;
  const failed = tallies.reduce((sum, tally) => sum + tally.failed, 0);
  process.stdout.write(`crashes: reads=${total} crashes=${crashes} failed_reads=${failed}\n`);
}

runMain(main, 'bench:crashes');
