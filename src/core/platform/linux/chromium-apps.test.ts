import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumWithoutAccessibility, commandLineArgs } from './chromium-apps';

/** A /proc of our own: each process an exe link, a command line and an environment. */
function fakeProc(processes: Record<number, { exe: string; args: string[]; env?: string[] }>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'deskpilot-proc-'));
  const browser = path.join(root, 'opt/chromium');
  mkdirSync(browser, { recursive: true });
  writeFileSync(path.join(browser, 'resources.pak'), '');
  for (const [pid, { exe, args, env = [] }] of Object.entries(processes)) {
    const folder = path.join(root, 'proc', pid);
    mkdirSync(folder, { recursive: true });
    const file = path.join(browser, exe);
    writeFileSync(file, '');
    symlinkSync(file, path.join(folder, 'exe'));
    writeFileSync(path.join(folder, 'cmdline'), `${[exe, ...args].join('\0')}\0`);
    writeFileSync(path.join(folder, 'environ'), `${env.join('\0')}\0`);
  }
  return path.join(root, 'proc');
}

describe('Chromium without accessibility', () => {
  it('counts only browsers on this display with a window: not crashpad, not headless ones, not another display', async () => {
    const proc = fakeProc({
      101: { exe: 'chromium', args: [], env: ['DISPLAY=:5'] },
      102: { exe: 'chromium', args: ['--type=renderer'], env: ['DISPLAY=:5'] },
      103: { exe: 'chrome_crashpad_handler', args: ['--monitor-self-annotation=ptype=crashpad-handler'], env: ['DISPLAY=:5'] },
      104: { exe: 'chromium', args: ['--headless=new'], env: ['DISPLAY=:5'] },
      105: { exe: 'chromium', args: [], env: ['DISPLAY=:9'] },
      106: { exe: 'chromium', args: ['--force-renderer-accessibility'], env: ['DISPLAY=:5'] },
      // Chromium rewrites its title, so its arguments read back as one string with spaces.
      107: { exe: 'chromium', args: ['--no-first-run --force-renderer-accessibility --user-data-dir=/tmp/x'], env: ['DISPLAY=:5'] },
    });
    const found = await chromiumWithoutAccessibility([], proc, ':5');
    expect(found).toEqual({ running: 3, without: [{ pid: 101, name: 'chromium' }] });
  });
});

describe('commandLineArgs', () => {
  it('reads NUL-separated arguments, and the one space-joined string Chromium leaves after it rewrites its title', () => {
    expect(commandLineArgs('/usr/bin/app\0--flag\0file name\0')).toEqual(['/usr/bin/app', '--flag', 'file name']);
    expect(commandLineArgs('/usr/lib/chromium/chromium --force-renderer-accessibility --type=renderer\0')).toEqual([
      '/usr/lib/chromium/chromium',
      '--force-renderer-accessibility',
      '--type=renderer',
    ]);
  });
});

describe('chromiumWithoutAccessibility', () => {
  it('lists browsers, not their helpers, and sees the flag in a rewritten title', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'doctor-chromium-'));
    const install = path.join(root, 'chromium');
    mkdirSync(install);
    writeFileSync(path.join(install, 'resources.pak'), '');
    for (const name of ['chromium', 'chrome_crashpad_handler']) writeFileSync(path.join(install, name), '');
    const proc = path.join(root, 'proc');
    const processes: [number, string, string][] = [
      [101, 'chromium', `${install}/chromium --force-renderer-accessibility --no-first-run`],
      [102, 'chromium', `${install}/chromium --type=renderer --force-renderer-accessibility`],
      [103, 'chrome_crashpad_handler', `${install}/chrome_crashpad_handler\0--monitor-self\0`],
      [104, 'chromium', `${install}/chromium\0--no-first-run\0`],
    ];
    for (const [pid, executable, cmdline] of processes) {
      mkdirSync(path.join(proc, String(pid)), { recursive: true });
      symlinkSync(path.join(install, executable), path.join(proc, String(pid), 'exe'));
      writeFileSync(path.join(proc, String(pid), 'cmdline'), cmdline);
      writeFileSync(path.join(proc, String(pid), 'environ'), '');
    }
    expect(await chromiumWithoutAccessibility([], proc)).toEqual({ running: 2, without: [{ pid: 104, name: 'chromium' }] });
  });
});
