/**
 * tsx bench/read-profile.ts [--browser chromium] [--size 20000] [--out /tmp/x] — one whole read
 * of a generated page, with a CPU profile of just that read, its wall time, peak RSS and the
 * tree's JSON (to compare reads before and after a change).
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { AtspiClient } from '../src/core/platform/linux/client';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes } from '../src/core/ui/tree-index';
import { startDesktop } from '../test/linux/desktop';
import { TOOLKIT_APPS, chromiumArgs } from '../test/linux/toolkit-apps';
import { waitFor } from '../test/linux/wait-for';
import { BIN, NODE } from '../test/linux/run-cli';
import { bigPage } from './pages/big-page';
import { a11yBusPid, cpuShare, describeShare } from './cpu-share';
import { runMain } from './run-main';

/** Calls by member: how many, when the first and last left and when the last answer came (ms from the read's start), to see the read's phases. */
const calls = new Map<string, { count: number; first: number; last: number; answered: number }>();
let t0 = 0;
for (const method of ['call', 'property'] as const) {
  const original = AtspiClient.prototype[method] as (...args: unknown[]) => Promise<unknown>;
  (AtspiClient.prototype as unknown as Record<string, unknown>)[method] = function (this: AtspiClient, ...args: unknown[]) {
    const member = method === 'call' ? String(args[2]) : `Get ${String(args[2])}`;
    const now = performance.now() - t0;
    const entry = calls.get(member) ?? { count: 0, first: now, last: now, answered: now };
    entry.count += 1;
    entry.last = now;
    calls.set(member, entry);
    const answer = original.apply(this, args);
    const heard = (): void => void (entry.answered = Math.max(entry.answered, performance.now() - t0));
    answer.then(heard, heard);
    return answer;
  };
}

const { values } = parseArgs({
  options: {
    browser: { type: 'string', default: 'chromium' },
    size: { type: 'string', default: '20000' },
    out: { type: 'string', default: '/tmp/bigread/run' },
    hold: { type: 'boolean', default: false },
    /** Reads timed after the profiled one, without the profiler: its overhead is not in their phases. */
    reads: { type: 'string', default: '0' },
  },
});

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  const size = Number(values.size);
  const browser = String(values.browser);
  try {
    const home = desktop.session.env['HOME'] as string;
    const page = bigPage(size);
    const file = path.join(home, `big-${size}.html`);
    writeFileSync(file, page.html);
    let binary = '/usr/bin/chromium';
    let args = chromiumArgs(path.join(home, 'chromium-profile'), file);
    if (browser === 'firefox') {
      TOOLKIT_APPS.find((app) => app.name === 'firefox-esr')?.prepare?.(home);
      binary = '/usr/bin/firefox-esr';
      args = ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${file}`];
    }
    const list = () => desktop.platform.apps.list().catch(() => []);
    const child = desktop.session.launch(binary, args, { env: { MOZ_ENABLE_WAYLAND: '0' } });
    const pid = await waitFor(async () => (await list()).find((app) => app.windows.length > 0)?.pid, 60_000, 'browser');
    let last = -1;
    await waitFor(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const root = (await desktop.engine.observe(pid, { fresh: true }).catch(() => undefined))?.root;
        if (root === undefined) return undefined;
        const count = countNodes(root);
        const done = count === last && JSON.stringify(root).includes(`"${page.lastButton}"`);
        last = count;
        return done ? true : undefined;
      },
      300_000,
      'page',
    );
    const whole = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;
    const load = (await promisify(execFile)('cat', ['/proc/loadavg'])).stdout.trim();
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    const bus = a11yBusPid(desktop.session.processIds());
    let root: unknown;
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let ms = 0;
    const share = await cpuShare(pid, bus, async () => {
      const started = performance.now();
      calls.clear();
      t0 = started;
      root = (await desktop.engine.observe(pid, whole)).root;
      ms = performance.now() - started;
    });
    clearInterval(sampler);
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${values.out}.cpuprofile`, JSON.stringify(profile));
    writeFileSync(`${values.out}.json`, JSON.stringify(root));
    const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
    process.stdout.write(
      `${browser} ${size}: nodes=${countNodes(root as never)} read=${ms.toFixed(0)} ms rss before=${mb(rss0)} peak=${mb(peak)} MB; ${describeShare(share)}; load ${load}\n`,
    );
    const cli = await promisify(execFile)('/usr/bin/time', ['-f', 'rss_kb=%M', NODE, BIN, 'tree', '--json', '--pid', String(pid)], {
      env: desktop.session.env,
      maxBuffer: 512 * 1024 * 1024,
      timeout: 120_000,
    });
    writeFileSync(`${values.out}.cli.json`, cli.stdout);
    const cliStarted = performance.now();
    await promisify(execFile)('/usr/bin/time', ['-f', 'rss_kb=%M', NODE, BIN, 'tree', '--json', '--pid', String(pid)], {
      env: desktop.session.env,
      maxBuffer: 512 * 1024 * 1024,
      timeout: 120_000,
    }).then((again) => {
      const rss = Number(/rss_kb=(\d+)/.exec(again.stderr)?.[1] ?? 0) / 1024;
      process.stdout.write(
        `cli tree --json: ${(performance.now() - cliStarted).toFixed(0)} ms, peak rss ${rss.toFixed(0)} MB (first run ${(Number(/rss_kb=(\d+)/.exec(cli.stderr)?.[1] ?? 0) / 1024).toFixed(0)} MB), ${cli.stdout.length} bytes\n`,
      );
    });
    const phases = (): void => {
      for (const [member, { count, first, last, answered }] of calls)
        process.stdout.write(`  ${member}: ${count} calls, sent ${first.toFixed(0)}-${last.toFixed(0)} ms, last answer ${answered.toFixed(0)} ms\n`);
    };
    phases();
    // Unprofiled reads: the serial tail is what follows the last answer (the walk's end, the build, the ids, the redaction).
    for (let read = 0; read < Number(values.reads); read += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      calls.clear();
      const loadNow = (await promisify(execFile)('cat', ['/proc/loadavg'])).stdout.trim();
      let wall = 0;
      const again = await cpuShare(pid, bus, async () => {
        const started = performance.now();
        t0 = started;
        await desktop.engine.observe(pid, whole);
        wall = performance.now() - started;
      });
      const lastAnswer = Math.max(...[...calls.values()].map((entry) => entry.answered));
      process.stdout.write(
        `read ${read + 1}: ${wall.toFixed(0)} ms, last answer ${lastAnswer.toFixed(0)} ms, tail ${(wall - lastAnswer).toFixed(0)} ms; cpu app ${again.appMs} us ${again.selfMs} ms (${describeShare(again)}); load ${loadNow}\n`,
      );
      phases();
    }
    if (values.hold) {
      // Keeps the page up for CLI runs by hand: the session's env and the pid go to <out>.env.json; <out>.stop ends it.
      writeFileSync(`${values.out}.env.json`, JSON.stringify({ pid, env: desktop.session.env }));
      for (let waited = 0; waited < 1800 && !existsSync(`${values.out}.stop`); waited += 1) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    child.kill('SIGTERM');
  } finally {
    await desktop.stop();
  }
}

runMain(main);
