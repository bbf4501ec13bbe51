/**
 * What recording every verified action costs the window's agent (so any completed task can be
 * saved as a workflow): set_value on the fixture app's text field through the plain engine and
 * through the RecordingEngine, alternately, on a private headless desktop.
 * Prints `recording: plain_ms_p50=… recording_ms_p50=… ratio=…`.
 */
import { ActionEngine } from '../src/core/actions/engine';
import { findNodes } from '../src/core/ui/query';
import { RecordingEngine } from '../src/core/workflows/recording-engine';
import { startDesktop } from '../test/linux/desktop';
import { median } from './stats';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);

const desktop = await startDesktop();
try {
  const { pid } = await desktop.launchFixture();
  const plain = new ActionEngine({ platform: desktop.platform });
  // The window's agent records without extents (host.ts); the CLI's --save-workflow with them.
  const recording = new RecordingEngine({ platform: desktop.platform, treeBounds: 'none' });
  const withBounds = new RecordingEngine({ platform: desktop.platform });
  const root = (await plain.observe(pid, { fresh: true })).root;
  const id = findNodes(root, { role: 'textfield', limit: 1 })[0]?.node.id;
  if (id === undefined) throw new Error('the fixture has no text field');
  const times: Record<'plain' | 'recording' | 'bounds', number[]> = { plain: [], recording: [], bounds: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, engine] of [
      ['plain', plain],
      ['recording', recording],
      ['bounds', withBounds],
    ] as const) {
      const started = performance.now();
      const result = await engine.run(pid, { action: 'set_value', id, value: `${name} ${round}` });
      if (!result.success) throw new Error(`${name} round ${round} failed: ${result.error?.message ?? ''}`);
      times[name].push(performance.now() - started);
    }
  }
  const p50 = { plain: median(times.plain), recording: median(times.recording), bounds: median(times.bounds) };
  console.log(
    `recording: rounds=${ROUNDS} recorded=${recording.actions.length} plain_ms_p50=${p50.plain.toFixed(1)} recording_ms_p50=${p50.recording.toFixed(1)} ratio=${(p50.recording / p50.plain).toFixed(2)} with_bounds_ms_p50=${p50.bounds.toFixed(1)} with_bounds_ratio=${(p50.bounds / p50.plain).toFixed(2)}`,
  );
} finally {
  await desktop.stop();
}
