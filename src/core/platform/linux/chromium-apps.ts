/**
 * Chromium and Electron apps build their accessibility tree only when started with
 * --force-renderer-accessibility (or ACCESSIBILITY_ENABLED=1); without it AT-SPI shows an
 * empty window. They are found by the .pak files every Chromium build ships beside its
 * executable, whatever the app calls itself (chrome, code, slack, an AppImage).
 */
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

export interface ChromiumApp {
  pid: number;
  name: string;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
}

/**
/**
 * A process's arguments from /proc/PID/cmdline. Chromium rewrites its process title, after
 * which the file holds space-joined arguments instead of NUL-separated ones; such a string is
 * split on spaces (a switch never holds one before its `=`, which is all that is matched).
 */
export function commandLineArgs(raw: string): string[] {
  return raw
    .split('\0')
    .filter((arg) => arg !== '')
    .flatMap((arg) => (arg.includes(' --') ? arg.split(' ').filter((word) => word !== '') : [arg]));
}

/** Helper processes: renderers, GPU, utilities and zygotes carry --type=; the crash reporter runs its own executable. */
function isHelper(executable: string, args: readonly string[]): boolean {
  return args.some((arg) => arg.startsWith('--type=')) || path.basename(executable).includes('crashpad');
}

/**
 * The browser processes (not their renderers and helpers), and those of them without
 * accessibility. Only those a user could be driving on this desktop count: a headless browser
 * has no window to read, and one on another X display (another session, a test's Xvfb) is not
 * this desktop's problem.
 */
export function chromiumWithoutAccessibility(
  ownPids: readonly number[],
  proc = '/proc',
  display?: string,
): Promise<{ running: number; without: ChromiumApp[] }> {
  const isChromium = new Map<string, boolean>();
  let running = 0;
  const without: ChromiumApp[] = [];
  for (const entry of readdirSync(proc)) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || ownPids.includes(pid) || pid === process.pid) continue;
    let executable: string;
    try {
      executable = readlinkSync(`${proc}/${entry}/exe`);
    } catch {
      continue; // another user's process, or one that just ended
    }
    const folder = path.dirname(executable);
    let chromium = isChromium.get(folder);
    if (chromium === undefined) {
      chromium = existsSync(path.join(folder, 'chrome_100_percent.pak')) || existsSync(path.join(folder, 'resources.pak'));
      isChromium.set(folder, chromium);
    }
    if (!chromium) continue;
    const args = commandLineArgs(read(`${proc}/${entry}/cmdline`) ?? '');
    if (isHelper(executable, args) || args.some((arg) => arg === '--headless' || arg.startsWith('--headless='))) continue;
    const environment = (read(`${proc}/${entry}/environ`) ?? '').split('\0');
    const shownOn = environment.find((variable) => variable.startsWith('DISPLAY='))?.slice('DISPLAY='.length);
    if (display !== undefined && display !== '' && shownOn !== undefined && shownOn !== display) continue;
    running += 1;
    if (args.includes('--force-renderer-accessibility') || environment.includes('ACCESSIBILITY_ENABLED=1')) continue;
    without.push({ pid, name: path.basename(executable) });
  }
  return Promise.resolve({ running, without });
}
