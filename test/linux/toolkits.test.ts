/**
 * One app per toolkit people use daily (Qt 5 and 6, LibreOffice Writer and Calc, Firefox,
 * Chromium, GTK 4), read as a user's session reads them: the app survives 20 reads, the share
 * of named interactive nodes is at least python3-pyatspi's on the same app, the document's,
 * page's or cell's known text is in the tree, and one action's effect shows in pyatspi's own
 * read of the app. An app whose binary is absent is skipped, and its test title says so.
 *
 * The names users type reach the same apps through the real CLI, while they still run (one
 * launch each: LibreOffice alone takes seconds to start): LibreOffice runs as soffice.bin and
 * names itself "soffice", yet `--app writer`, `--app libreoffice` and `--app calc` find it by its
 * desktop files; GNOME Text Editor is found as "text editor", its desktop Name. Writer's launch
 * also serves the menu tests beside a working user (writer-menus.ts), between its own checks and
 * its names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/core/platform/process';
import type { ChildProcess } from 'node:child_process';
import type { UiNode } from '../../src/shared/ui-node';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { runCli } from './run-cli';
import { hasHeadlessTools } from './session';
import {
  NAMES_ONLY,
  OUTSIDE_MENUS,
  TOOLKIT_APPS,
  isInstalled,
  launchAppProcess,
  ourNamedShare,
  pyatspiNamedShare,
  pyatspiRead,
  stopAppProcess,
  treeText,
  unnamedInteractive,
  type ToolkitApp,
} from './toolkit-apps';
import { waitFor } from './wait-for';
import { writerMenuTests } from './writer-menus';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
const READS = 20;
/** LibreOffice and Firefox start slowly on a fresh profile, more so on a 2-core CI machine. */
const APP_TIMEOUT_MS = 150_000;
const CLI_DEADLINE_MS = 30_000;
/** The names users type for an app, each of which must find it. */
const TYPED_NAMES: Partial<Record<string, readonly string[]>> = {
  writer: ['writer', 'libreoffice', 'calc', 'LibreOffice Writer'],
  'gnome-text-editor': ['text editor', 'gnome-text-editor'],
  'firefox-esr': ['firefox', 'firefox-esr', 'web browser'],
};

interface Running {
  app: ToolkitApp;
  pid: number;
  child: ChildProcess;
}

describe.skipIf(!run)('apps of every toolkit', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
  }, 60_000);

  /** One app runs at a time: the names test after an app's own test reads the same launch. */
  let running: Running | undefined;
  /** Resolves once the app has exited (a tenth of a second): Writer and Calc share a profile, which a running one holds. */
  const stop = async (): Promise<void> => {
    if (running === undefined) return;
    const stopping = running;
    running = undefined;
    await stopAppProcess(stopping);
  };
  /** The app, launched unless it already runs; any other app is stopped first (Writer and Calc share a profile). */
  const launched = async (app: ToolkitApp): Promise<Running> => {
    if (running?.app === app && isProcessAlive(running.pid)) return running;
    await stop();
    running = { app, ...(await launchAppProcess(desktop, app)) };
    return running;
  };

  afterAll(async () => {
    await stop();
    await desktop?.stop();
  });

  for (const app of TOOLKIT_APPS) {
    const installed = isInstalled(app);
    const title = installed ? `${app.name} (${app.toolkit})` : `${app.name} (${app.toolkit}): skipped, ${app.binary} is not installed`;
    it.skipIf(!installed)(
      title,
      async () => {
        const { pid } = await launched(app);
        try {
          // Reads as a session makes them: mostly patched from events, every fifth one whole.
          for (let read = 0; read < READS; read += 1) await desktop.engine.observe(pid, { fresh: read % 5 === 0 });
          expect(isProcessAlive(pid), `${app.name} died during ${READS} reads`).toBe(true);

          // pyatspi reads first and Deskpilot right after, so a name still arriving is in both; a page that
          // is still changing gets two more tries (bounded), and the last comparison is the one asserted.
          // The first comparison's read is the first read here: a whole read of a LibreOffice document
          // costs about a second, so none is made only to be replaced.
          let shares: { ours: number; pyatspi: number };
          let root: UiNode;
          let attempt = 0;
          do {
            const reference = await pyatspiRead(desktop.session.env, pid, 1, NAMES_ONLY);
            root = (await desktop.engine.observe(pid, { fresh: true, maxNodes: 4999 })).root;
            shares = { ours: ourNamedShare(root).ratio, pyatspi: pyatspiNamedShare(reference.records).ratio };
            attempt += 1;
          } while (attempt < 3 && shares.ours < shares.pyatspi);
          expect(shares.ours, `unnamed: ${unnamedInteractive(root).join(', ')}`).toBeGreaterThanOrEqual(shares.pyatspi);
          expect(treeText(root)).toContain(app.knownText);

          const target = app.action.target(root);
          expect(target, `no node for "${app.action.describe}"`).toBeDefined();
          if (target === undefined) return;
          await desktop.engine.run(pid, app.action.request(target));
          // The effect is read back by pyatspi, not by Deskpilot: an independent witness, which reads the app
          // outside its menus (where no effect shows).
          const witnessed = async (): Promise<true | undefined> =>
            app.action.landed((await pyatspiRead(desktop.session.env, pid, 1, OUTSIDE_MENUS)).records) ? true : undefined;
          // A pyatspi dump of Calc takes 3 s of a loaded machine: 5 s allowed two, and lost once at load 12.
          await waitFor(witnessed, 15_000, app.action.describe);
          expect(isProcessAlive(pid)).toBe(true);
        } finally {
          // Kept running for the names test that follows; stopped before anything else launches.
          if (TYPED_NAMES[app.name] === undefined) await stop();
        }
      },
      APP_TIMEOUT_MS,
    );

    // Writer's launch also serves the menu tests: after its own checks, before its names test stops it.
    if (app.name === 'writer')
      writerMenuTests(
        !installed,
        () => desktop,
        async () => (await launched(app)).pid,
      );

    const names = TYPED_NAMES[app.name];
    if (names === undefined) continue;
    it.skipIf(!installed)(
      installed ? `${app.name} by ${names.join(', ')}` : `${app.name}: skipped, not installed`,
      async () => {
        const { pid } = await launched(app);
        try {
          // All at once: each is a process of its own that mostly waits for its start-up and the bus.
          const results = await Promise.all(names.map((name) => runCli(['tree', '--app', name, '--max-nodes', '1'], desktop.session.env, CLI_DEADLINE_MS)));
          names.forEach((name, index) => {
            const result = results[index];
            expect(result?.stderr, `--app ${name}`).toBe('');
            expect(result?.stdout, `--app ${name}`).toContain(`(pid ${pid})`);
          });
        } finally {
          await stop();
        }
      },
      APP_TIMEOUT_MS,
    );
  }
});
