import { describe, expect, it } from 'vitest';
import { abortReason, type Clock } from '../clock';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { FixtureApp } from '../platform/fake/fixture-app';
import { parseWorkflow } from './load';
import { runWorkflow } from './runner';
import { EVENT_GAP_MS, waitFor } from './target-wait';

const FORM = [{ role: 'group' as const, name: '' }];
const WINDOW = { role: 'window' as const, title: 'Deskpilot Fixture' };
const FILL = parseWorkflow(
  JSON.stringify({
    format: 'deskpilot-workflow',
    version: 1,
    name: 'fill',
    app: { name: 'Deskpilot Fixture' },
    steps: [
      { action: 'set_value', target: { window: WINDOW, role: 'textfield', name: 'Name', path: FORM }, value: 'Grace', expect: { value: 'Grace' } },
      { action: 'click', target: { window: WINDOW, role: 'checkbox', name: 'Enable feature', path: FORM }, expect: { states: { checked: true } } },
    ],
  }),
);

/** The engine, counting the reads made outside its own run(): replay's reads (locator, gate, verification). */
function countingEngine(platform: FakePlatform, clock: Clock): { engine: ActionEngine; replayReads: () => number; requests: Record<string, unknown>[] } {
  const engine = new ActionEngine({ platform, clock });
  let inRun = 0;
  let reads = 0;
  const requests: Record<string, unknown>[] = [];
  const observe = engine.observe.bind(engine);
  const run = engine.run.bind(engine);
  engine.observe = (...args) => {
    if (inRun === 0) reads += 1;
    return observe(...args);
  };
  engine.run = async (pid, input, signal) => {
    inRun += 1;
    requests.push(input as Record<string, unknown>);
    try {
      return await run(pid, input, signal);
    } finally {
      inRun -= 1;
    }
  };
  return { engine, replayReads: () => reads, requests };
}

describe('what a replayed step reads', () => {
  it('reads the app once per step outside the engine: the safety gate judges the tree the target was found in', async () => {
    const platform = new FakePlatform();
    const clock = new FakeClock();
    const { engine, replayReads } = countingEngine(platform, clock);
    const report = await runWorkflow(FILL, { engine, platform, pid: FIXTURE_PID, clock, values: {}, waitMs: 1_000 });
    expect(report.status).toBe('completed');
    // One locator read a step; the gate reads none of its own and each effect is seen in the engine's result.
    expect(replayReads()).toBe(2);
    const app = platform.running.get(FIXTURE_PID) as FixtureApp;
    expect(app.get('name').value).toBe('Grace');
  });

  it('lists the running apps once a run for the safety gate, and still asks every step whether the app runs', async () => {
    const platform = new FakePlatform();
    const clock = new FakeClock();
    const { engine } = countingEngine(platform, clock);
    const list = platform.apps.list.bind(platform.apps);
    const isAlive = platform.apps.isAlive.bind(platform.apps);
    let lists = 0;
    let alive = 0;
    platform.apps.list = () => {
      lists += 1;
      return list();
    };
    platform.apps.isAlive = (pid) => {
      alive += 1;
      return isAlive(pid);
    };
    const report = await runWorkflow(FILL, { engine, platform, pid: FIXTURE_PID, clock, values: {}, waitMs: 1_000 });
    expect(report.status).toBe('completed');
    expect(lists).toBe(1);
    expect(alive).toBeGreaterThanOrEqual(2);
  });

  it("asks the engine to look for the effect at once and at the app's events, unless the step sets its own settle time", async () => {
    const platform = new FakePlatform();
    const clock = new FakeClock();
    const { engine, requests } = countingEngine(platform, clock);
    const steps = JSON.parse(JSON.stringify(FILL.steps)) as Record<string, unknown>[];
    (steps[1] as Record<string, unknown>)['settleMs'] = 300;
    const workflow = parseWorkflow(JSON.stringify({ ...FILL, steps }));
    await runWorkflow(workflow, { engine, platform, pid: FIXTURE_PID, clock, values: {}, waitMs: 1_000 });
    expect(requests.map((request) => request['settleMs'])).toEqual([0, 300]);
  });
});

describe('waitFor', () => {
  /** A clock whose waits longer than the event gap never end by themselves: only an event can end them. */
  function stalledClock(): Clock & { time: number } {
    return {
      time: 0,
      now() {
        return this.time;
      },
      sleep(ms: number, signal?: AbortSignal): Promise<void> {
        if (ms <= EVENT_GAP_MS) {
          this.time += ms;
          return Promise.resolve();
        }
        return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(abortReason(signal)), { once: true }));
      },
    };
  }

  it("looks again at the app's next event instead of waiting out the poll", async () => {
    const clock = stalledClock();
    let looks = 0;
    let events = 0;
    const nextEvent = (): Promise<void> => {
      events += 1;
      return Promise.resolve();
    };
    const ready = await waitFor({ clock, waitMs: 5_000, pollMs: 100, nextEvent }, async () => (looks += 1) >= 3);
    expect(ready).toBe(true);
    expect(looks).toBe(3);
    expect(events).toBe(2);
    expect(clock.time).toBe(2 * EVENT_GAP_MS);
  });

  it('polls by the clock where the platform reports no events', async () => {
    const clock = new FakeClock();
    let looks = 0;
    expect(await waitFor({ clock, waitMs: 1_000, pollMs: 100 }, async () => (looks += 1) >= 3)).toBe(true);
    expect(clock.sleeps).toEqual([100, 100]);
  });
});
