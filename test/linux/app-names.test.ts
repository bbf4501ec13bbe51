/**
 * The names users type reach their apps through the real CLI: LibreOffice runs as soffice.bin
 * and names itself "soffice", yet `--app writer`, `--app libreoffice` and `--app calc` find it
 * by its desktop files; GNOME Text Editor is found as "text editor", its desktop Name. An app
 * whose binary is absent is skipped, and its test title says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktop, type Desktop } from './desktop';
import { runCli } from './run-cli';
import { hasHeadlessTools } from './session';
import { TOOLKIT_APPS, isInstalled, launchAppProcess } from './toolkit-apps';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
/** LibreOffice starts slowly on a fresh profile, more so on a 2-core machine. */
const APP_TIMEOUT_MS = 150_000;
const CLI_DEADLINE_MS = 30_000;

const CASES = [
  { app: 'writer', names: ['writer', 'libreoffice', 'calc', 'LibreOffice Writer'] },
  { app: 'gnome-text-editor', names: ['text editor', 'gnome-text-editor'] },
  { app: 'firefox-esr', names: ['firefox', 'firefox-esr', 'web browser'] },
] as const;

describe.skipIf(!run)('app names users type', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await startDesktop({ openbox: true });
  }, 60_000);

  afterAll(async () => desktop?.stop());

  for (const { app: appName, names } of CASES) {
    const app = TOOLKIT_APPS.find((each) => each.name === appName);
    const installed = app !== undefined && isInstalled(app);
    it.skipIf(!installed)(
      installed ? `${appName} by ${names.join(', ')}` : `${appName}: skipped, not installed`,
      async () => {
        const { pid, child } = await launchAppProcess(desktop, app as NonNullable<typeof app>);
        try {
          for (const name of names) {
            const result = await runCli(['tree', '--app', name, '--max-nodes', '1'], desktop.session.env, CLI_DEADLINE_MS);
            expect(result.stderr, `--app ${name}`).toBe('');
            expect(result.stdout, `--app ${name}`).toContain(`(pid ${pid})`);
          }
        } finally {
          child.kill();
        }
      },
      APP_TIMEOUT_MS,
    );
  }
});
