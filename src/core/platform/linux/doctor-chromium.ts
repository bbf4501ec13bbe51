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

/** The browser processes (not their renderers and helpers), and those of them without accessibility. */
export function chromiumWithoutAccessibility(ownPids: readonly number[], proc = '/proc'): Promise<{ running: number; without: ChromiumApp[] }> {
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
    const args = (read(`${proc}/${entry}/cmdline`) ?? '').split('\0');
    // Renderers, GPU and utility processes carry --type=; the browser process does not.
    if (args.some((arg) => arg.startsWith('--type='))) continue;
    running += 1;
    const environment = (read(`${proc}/${entry}/environ`) ?? '').split('\0');
    if (args.includes('--force-renderer-accessibility') || environment.includes('ACCESSIBILITY_ENABLED=1')) continue;
    without.push({ pid, name: path.basename(executable) });
  }
  return Promise.resolve({ running, without });
}
