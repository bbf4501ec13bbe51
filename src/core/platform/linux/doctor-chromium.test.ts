import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumWithoutAccessibility, commandLineArgs } from './doctor-chromium';

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
