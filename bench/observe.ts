/**
 * npm run bench:observe — the read an agent makes right after an action: act through the
 * engine, then observe fresh (served from the event-patched mirror), against a full fetch of
 * the same app in the same run, on the fixture, gtk3-widget-factory and gtk4-widget-factory.
 */
import type { UiNode } from '../src/shared/ui-node';
import { findNodes } from '../src/core/ui/query';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { fullTree, mirrorStats } from '../test/linux/mirror-compare';
import { median, ms, quantile, timed } from './stats';

const RUNS = 30;

interface App {
  name: string;
  launch: (desktop: Desktop) => Promise<{ pid: number }>;
  /** An action that changes something every time: a slider or spin button moved back and forth. */
  role: 'slider' | 'spinbutton';
}

const APPS: App[] = [
  { name: 'fixture', launch: (desktop) => desktop.launchFixture(), role: 'slider' },
  { name: 'gtk3', launch: (desktop) => desktop.launch('gtk3-widget-factory'), role: 'spinbutton' },
  { name: 'gtk4', launch: (desktop) => desktop.launch('gtk4-widget-factory'), role: 'spinbutton' },
];

async function measure(desktop: Desktop, app: App): Promise<{ observe: number[]; full: number[] }> {
  const { pid } = await app.launch(desktop);
  const observe: number[] = [];
  let flip = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const tree = await desktop.engine.observe(pid, { fresh: true });
    const node = findNodes(tree.root, { role: app.role }).find(({ node: candidate }) => typeof candidate.value === 'number')?.node as UiNode;
    const result = await desktop.engine.run(pid, { action: 'set_value', id: node.id, value: (flip += 1) % 2 === 0 ? 3 : 7 });
    if (!result.success) throw new Error(`${app.name}: set_value failed: ${result.error?.message}`);
    const started = performance.now();
    await desktop.engine.observe(pid, { fresh: true });
    observe.push(performance.now() - started);
  }
  const full = await timed(RUNS, () => fullTree(desktop.platform, pid));
  return { observe, full };
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  try {
    console.log(`${RUNS} runs each: set_value through the engine (default settle), then a fresh observe; full = a whole fetch past the mirror`);
    const medians: Record<string, number> = {};
    const speedups: number[] = [];
    for (const app of APPS) {
      const { observe, full } = await measure(desktop, app);
      medians[app.name] = median(observe);
      speedups.push(median(full) / median(observe));
      console.log(
        `${app.name.padEnd(8)} observe_after_act median=${ms(median(observe))} ms p95=${ms(quantile(observe, 0.95))} ms  full median=${ms(median(full))} ms  speedup=${(median(full) / median(observe)).toFixed(1)}x`,
      );
    }
    console.log(`mirror: ${JSON.stringify(mirrorStats(desktop.platform))}`);
    console.log(
      `observe_after_act: fixture_ms=${ms(medians['fixture'] ?? NaN)} gtk3_ms=${ms(medians['gtk3'] ?? NaN)} gtk4_ms=${ms(medians['gtk4'] ?? NaN)} speedup_min=${Math.min(...speedups).toFixed(1)}`,
    );
  } finally {
    await desktop.stop();
  }
}

await main();
