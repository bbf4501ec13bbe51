/**
 * tsx bench/apps-warmup.ts [app] (default firefox-esr) — the first whole reads of a freshly launched bench:apps app,
 * one by one with when each started, then python3-pyatspi's dumps, then our reads again: whether the app is still
 * busy when bench:apps times it. Firefox ESR answered its first reads in 70-825 ms and later ones in 17-36 ms.
 */
import { loadavg } from 'node:os';
import { startDesktop } from '../test/linux/desktop';
import { WHOLE_READ } from '../test/linux/mirror-compare';
import { TOOLKIT_APPS, launchAppProcess, pyatspiRead, stopAppProcess } from '../test/linux/toolkit-apps';
import { ms } from './stats';
import { runMain } from './run-main';

const load = (): string => loadavg()[0]?.toFixed(1) ?? '?';

async function main(): Promise<void> {
  const name = process.argv.slice(2).find((arg) => arg !== '--') ?? 'firefox-esr';
  const app = TOOLKIT_APPS.find((each) => each.name === name);
  if (app === undefined) throw new Error(`no app ${name}`);
  const desktop = await startDesktop({ openbox: true });
  const launched = await launchAppProcess(desktop, app);
  const started = performance.now();
  const read = async (): Promise<string> => {
    const begun = performance.now();
    await desktop.engine.observe(launched.pid, WHOLE_READ);
    return `${ms(performance.now() - begun)}@${((begun - started) / 1000).toFixed(1)}s`;
  };
  try {
    const early: string[] = [];
    for (let count = 0; count < 8; count += 1) early.push(await read());
    process.stdout.write(`load ${load()} ours, from the launch on (ms@start): ${early.join(' ')}\n`);
    const reference = await pyatspiRead(desktop.session.env, launched.pid, 3);
    process.stdout.write(`pyatspi runs: ${JSON.stringify(reference.runs_ms)} median ${ms(reference.median_ms)}\n`);
    const late: string[] = [];
    for (let count = 0; count < 4; count += 1) late.push(await read());
    process.stdout.write(`load ${load()} ours after pyatspi: ${late.join(' ')}\n`);
  } finally {
    await stopAppProcess(launched);
    await desktop.stop();
  }
}

runMain(main);
