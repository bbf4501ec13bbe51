/**
 * One desktop per test worker, lent to each file that worker runs (the `linux-shared` project
 * in vitest.config.ts, isolate: false). A desktop start and a worker of its own cost a file
 * about half a CPU-second; most test/linux files need nothing but an openbox desktop.
 *
 * nut-js opens the display named by DISPLAY once per process and keeps it (and Xlib ends the
 * process when that X server goes away), so a worker holds one desktop for its whole life and
 * stops it only when it ends (session.stopWhenProcessEnds). What a file leaves behind is
 * ended or undone when it gives the desktop back (Desktop.stop), and what cannot be is an error.
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { createLinuxPlatform } from '../../src/core/platform/linux';
import { desktopOn, type Desktop } from './desktop';
import { startSession, waitFor, type HeadlessSession, type SessionOptions } from './session';

const execFileAsync = promisify(execFile);

/** A shared desktop has a window manager: with none, leftover windows cannot be listed (_NET_CLIENT_LIST). */
export type SharedDesktopOptions = SessionOptions & { openbox: true };

interface Held {
  options: SessionOptions;
  session: HeadlessSession;
  /** The processes the desktop is made of (X server, buses, registry, window manager), by pid. */
  core: Map<number, string>;
  /** Every file and folder of the session as it started; small files with their content. */
  files: Map<string, Buffer | undefined>;
  /** The root window's property names as the desktop started. */
  rootProperties: Set<string>;
}

let held: Promise<Held> | undefined;
let heldKey: string | undefined;
let lent: string | undefined;
let broken: string | undefined;

/** Folders of the session a file's apps write to; logs stay (a test reads its app's log). */
const RESET_FOLDERS = ['home', 'cache', 'config', 'data', 'state', 'tmp', 'run'];
const MAX_ENTRIES = 20_000;
const MAX_KEPT_BYTES = 1 << 20;
/**
 * D-Bus starts dconf-service when an app writes a setting, and it keeps the settings in memory:
 * it is ended with the file's apps, and the settings file put back, so no setting crosses files.
 */
const SETTINGS_SERVICES = new Set(['dconf-service']);

/** The worker's desktop, lent to this file until its stop(). */
export async function leaseDesktop(options: SharedDesktopOptions): Promise<Desktop> {
  if (broken !== undefined) throw new Error(`This worker's shared desktop is unusable: ${broken}`);
  if (lent !== undefined) throw new Error(`The shared desktop is still lent to ${lent}: a file did not stop() it`);
  const key = JSON.stringify({ openbox: true, width: options.width, height: options.height });
  if (heldKey !== undefined && heldKey !== key) {
    throw new Error(`This worker holds a desktop ${heldKey}, not ${key}; a file that needs another kind belongs in an own-worker project`);
  }
  heldKey = key;
  held ??= hold(options);
  held.catch(() => ((held = undefined), (heldKey = undefined)));
  const desktop = await held;
  const borrower = expect.getState().testPath ?? 'a file';
  lent = borrower;
  const env = { ...process.env };
  const platform = await createLinuxPlatform(desktop.session.env);
  return desktopOn(desktop.session, platform, async () => {
    try {
      await giveBack(desktop, platform);
    } catch (error) {
      broken = `${borrower} left it in a state that could not be undone: ${(error as Error).message}`;
      throw error;
    } finally {
      restoreEnv(env);
      lent = undefined;
    }
  });
}

async function hold(options: SessionOptions): Promise<Held> {
  const session = await startSession({ ...options, openbox: true });
  session.stopWhenProcessEnds();
  // nut-js opens the display named by this process's own environment, once.
  process.env['DISPLAY'] = session.display;
  return {
    options,
    session,
    core: new Map(session.processIds().map((pid) => [pid, commandOf(pid)])),
    files: snapshot(session.directory),
    // Openbox may or may not have named "no window" active yet; a new desktop names none.
    rootProperties: new Set((await rootProperties(session.env)).filter((name) => name !== '_NET_ACTIVE_WINDOW')),
  };
}

async function giveBack(desktop: Held, platform: Awaited<ReturnType<typeof createLinuxPlatform>>): Promise<void> {
  const { session } = desktop;
  const core = [...desktop.core.keys()].filter((pid) => !SETTINGS_SERVICES.has(desktop.core.get(pid) ?? ''));
  try {
    await session.endAllBut(core);
    const extra = session.processIds().filter((pid) => !core.includes(pid));
    if (extra.length > 0) throw new Error(`processes outlived the file: ${extra.map((pid) => `${pid} ${commandOf(pid)}`).join(', ')}`);
    const lost = core.filter((pid) => commandOf(pid) === '');
    if (lost.length > 0) throw new Error(`desktop processes ended: ${lost.map((pid) => `${pid} ${desktop.core.get(pid)}`).join(', ')}`);
    await waitFor(async () => ((await platform.apps.list()).length === 0 ? true : undefined), 15_000, 'the AT-SPI registry to hold no app');
  } finally {
    await platform.close();
  }
  // The window manager drops a dead client's window a moment after its connection closes.
  let clients = '';
  await waitFor(
    async () => {
      clients = (await execFileAsync('xprop', ['-root', '_NET_CLIENT_LIST'], { env: session.env })).stdout;
      return /0x[0-9a-f]+/i.test(clients) ? undefined : true;
    },
    5_000,
    'the window manager to list no window',
  ).catch(() => {
    throw new Error(`windows outlived the file: ${clients.trim().slice(0, 200)}`);
  });
  // A test that failed halfway may leave a modifier down; the pointer goes back where a new X server puts it.
  // No delay between the releases (xdotool waits 12 ms after each key by default, 0.1 s a file here).
  await execFileAsync(
    'xdotool',
    [
      'keyup',
      '--delay',
      '0',
      'Shift_L',
      'Shift_R',
      'Control_L',
      'Control_R',
      'Alt_L',
      'Alt_R',
      'Super_L',
      'Super_R',
      'ISO_Level3_Shift',
      'mousemove',
      ...centre(desktop.options),
    ],
    { env: session.env },
  );
  await freshWindowManager(desktop);
  restoreFiles(session.directory, desktop.files);
}

/**
 * What a new desktop would show the next file. Openbox remembers focus and user times (it refuses
 * a new window the focus while the user "works" in another), and leaves _NET_ACTIVE_WINDOW naming
 * the last file's window after it is gone: X reuses window ids, so that may come to name a new
 * app's window. GTK also caches its visuals on the root window (GDK_VISUALS). So openbox is started
 * anew, and the root window loses every property the desktop did not start with.
 */
async function freshWindowManager(desktop: Held): Promise<void> {
  const { session } = desktop;
  const { ended, started } = await session.restartWindowManager();
  desktop.core.delete(ended);
  desktop.core.set(started, commandOf(started));
  const added = (await rootProperties(session.env)).filter((name) => !desktop.rootProperties.has(name));
  if (added.length > 0) await execFileAsync('xprop', ['-root', ...added.flatMap((name) => ['-remove', name])], { env: session.env });
}

/** The names of the root window's properties (`xprop -root` prints one per line, as NAME(TYPE) = value). */
async function rootProperties(env: NodeJS.ProcessEnv): Promise<string[]> {
  const { stdout } = await execFileAsync('xprop', ['-root'], { env, maxBuffer: 4 << 20 });
  return stdout.split('\n').flatMap((line) => /^([A-Za-z_][A-Za-z0-9_]*)[(:]/.exec(line)?.[1] ?? []);
}

function centre({ width = 1920, height = 1200 }: SessionOptions): string[] {
  return [String(Math.floor(width / 2)), String(Math.floor(height / 2))];
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function restoreEnv(before: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  for (const [name, value] of Object.entries(before)) if (process.env[name] !== value) process.env[name] = value;
}

function walk(directory: string, visit: (file: string, isDirectory: boolean) => void): void {
  let count = 0;
  const queue = RESET_FOLDERS.map((folder) => path.join(directory, folder)).filter((folder) => existsSync(folder));
  while (queue.length > 0) {
    const folder = queue.shift() as string;
    for (const name of readdirSync(folder)) {
      if (++count > MAX_ENTRIES) throw new Error(`more than ${MAX_ENTRIES} files under ${directory}`);
      const file = path.join(folder, name);
      const isDirectory = lstatSync(file).isDirectory();
      visit(file, isDirectory);
      if (isDirectory) queue.push(file);
    }
  }
}

function snapshot(directory: string): Map<string, Buffer | undefined> {
  const files = new Map<string, Buffer | undefined>();
  walk(directory, (file, isDirectory) => {
    const stat = lstatSync(file);
    files.set(file, !isDirectory && stat.isFile() && stat.size <= MAX_KEPT_BYTES ? readFileSync(file) : undefined);
  });
  return files;
}

/** New files go; the session's own small files get their first content back. */
function restoreFiles(directory: string, files: Map<string, Buffer | undefined>): void {
  const added: string[] = [];
  walk(directory, (file) => {
    if (!files.has(file)) added.push(file);
  });
  // A folder's entries are listed before its subfolders are walked, so parents come first.
  for (const file of added) rmSync(file, { recursive: true, force: true });
  for (const [file, content] of files) {
    if (content === undefined) continue;
    if (!existsSync(file) || !readFileSync(file).equals(content)) writeFileSync(file, content);
  }
}
