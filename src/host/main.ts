/**
 * The automation host's entry: main starts it as an Electron utilityProcess (tests use
 * child_process.fork under tsx). It runs the core in its own process, so a hung
 * accessibility call or a native crash takes down this process, which main restarts,
 * and never the app.
 *
 * Arguments: `--main-pid=<pid>`, so the agent never targets Deskpilot's own main process.
 */
import { dataDir } from '../core/platform/data-dir';
import { assemblePlatform } from '../core/runtime/platform';
import { AutomationHost } from './host';
import { serveDoctor } from './doctor-mode';
import { processPort } from './port';

function mainPidFrom(argv: readonly string[]): number | undefined {
  const raw = argv.find((argument) => argument.startsWith('--main-pid='))?.slice('--main-pid='.length);
  const pid = Number(raw);
  return raw !== undefined && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function run(): Promise<void> {
  // Main's Diagnose button starts this entry once more, to run the doctor's checks and exit.
  if (process.argv.includes('--doctor')) return serveDoctor([mainPidFrom(process.argv) ?? process.ppid, process.pid]);
  const port = processPort();
  port.onClose(() => process.exit(0));
  const mainPid = mainPidFrom(process.argv) ?? process.ppid;
  const ownPids = [mainPid, process.pid];
  // Deskpilot's own window never shows in a window capture.
  const platform = await assemblePlatform(process.platform, process.env, { hidePids: () => ownPids });
  // Main sets DESKPILOT_DATA_DIR to the app's data folder; the documentation index lives there.
  new AutomationHost({ port, platform, ownPids, docsDir: dataDir(process.env) }).start();
}

run().catch((error: unknown) => {
  // Main sees the exit and restarts the host with backoff.
  console.error('deskpilot host: failed to start:', error instanceof Error ? error.message : String(error));
  process.exit(1);
});
