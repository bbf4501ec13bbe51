/**
 * bench:render — the chat window streaming a long answer, in Chromium through the real built
 * renderer and the fake bridge. A 30,000-character markdown answer arrives in 1,500 chunks, one
 * per task, as fast as the page takes them, once with the 50 ms markdown throttle the app ships
 * and once rendering on every update (`?markdownThrottleMs=0`), in the same run. It fails when
 * two renders while streaming come less than 50 ms apart; the final render that the end of the
 * answer forces is left out, as is the first (its gap is to nothing).
 */
import type { Page } from 'playwright-core';
import { closeSharedBrowser, startHarness } from '../test/renderer/harness/browser';
import type { PageGlobal } from '../test/renderer/harness/fake-bridge';
import { options } from '../test/renderer/harness/fixtures';
import { chunks, longAnswer } from './render/answer';

const ANSWER_CHARS = 30_000;
const CHUNKS = 1_500;
/** The app's markdown throttle: two renders while an answer streams are at least this far apart. */
const THROTTLE_MS = 50;
/** Chromium rounds performance.now() to 0.1 ms without cross-origin isolation; a gap is judged to that. */
const CLOCK_RESOLUTION_MS = 0.1;

interface RunResult {
  renders: number;
  /** When each render ran while the answer streamed, leaving out the final one that `done` forces. */
  streamingRenders: number[];
  /** From the first chunk to the render that shows the whole answer. */
  totalMs: number;
  streamMs: number;
  longTasks: number[];
  /** The longest wait between two chunk deliveries: how long the page kept the pump from running. */
  longestGapMs: number;
}

async function run(page: Page, deltas: string[], text: string): Promise<RunResult> {
  await page.evaluate(() =>
    (globalThis as PageGlobal).__fake.emit({ type: 'agent', event: { type: 'ask', askId: 'ask-1', text: 'Describe the window in detail', pid: 42 } }),
  );
  await page.locator('.message.user').waitFor();
  return page.evaluate(
    async ({ deltas, text }) => {
      const fake = (globalThis as PageGlobal).__fake;
      const channel = new MessageChannel();
      let wake: (() => void) | undefined;
      // addEventListener (with start()) rather than onmessage: the file is typed for Node, whose MessagePort lacks it.
      channel.port1.addEventListener('message', () => wake?.());
      channel.port1.start();
      const nextTask = () =>
        new Promise<void>((resolve) => {
          wake = resolve;
          channel.port2.postMessage(null);
        });
      const rendersBefore = fake.renders.length;
      const longTasksBefore = fake.longTasks.length;
      const start = performance.now();
      let last = start;
      let longestGapMs = 0;
      for (const delta of deltas) {
        await nextTask();
        const now = performance.now();
        longestGapMs = Math.max(longestGapMs, now - last);
        last = now;
        fake.emit({ type: 'agent', event: { type: 'ai_chunk', askId: 'ask-1', delta } });
      }
      const streamEnd = performance.now();
      fake.emit({ type: 'agent', event: { type: 'ai_response', askId: 'ask-1', text, toolCalls: [], finishReason: 'stop' } });
      fake.emit({ type: 'agent', event: { type: 'done', askId: 'ask-1', answer: text, stopped: false, reason: 'answered' } });
      while (fake.renders.at(-1)?.length !== text.length) await new Promise((resolve) => setTimeout(resolve, 2));
      // Let a last long task (the final render) reach the observer.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const renders = fake.renders.slice(rendersBefore);
      return {
        renders: renders.length,
        // `done` comes in the same task as streamEnd, so any render after it is the final flush, which is not throttled.
        streamingRenders: renders.filter((render) => render.at <= streamEnd).map((render) => render.at),
        totalMs: (renders.at(-1)?.at ?? start) - start,
        streamMs: streamEnd - start,
        longTasks: fake.longTasks.slice(longTasksBefore),
        longestGapMs,
      };
    },
    { deltas, text },
  );
}

/** The gaps between consecutive renders while streaming: what the throttle promises, free of fenceposts. */
function gaps(result: RunResult): number[] {
  return result.streamingRenders.slice(1).map((at, index) => at - (result.streamingRenders[index] ?? at));
}

/** Renders a second while streaming: gaps over the time they span, so neither the first render nor the final flush counts twice. */
function perSecond(result: RunResult): number {
  const spans = gaps(result);
  const total = spans.reduce((sum, gap) => sum + gap, 0);
  return spans.length === 0 || total === 0 ? 0 : spans.length / (total / 1000);
}

function describe(label: string, result: RunResult): string {
  const longest = result.longTasks.length === 0 ? 'none ≥ 50 ms' : `${Math.max(...result.longTasks).toFixed(0)} ms (${result.longTasks.length} long tasks)`;
  return `${label.padEnd(22)} renders=${String(result.renders).padStart(5)}  renders/s=${perSecond(result).toFixed(1).padStart(6)}  total=${result.totalMs.toFixed(0).padStart(6)} ms  stream=${result.streamMs.toFixed(0).padStart(6)} ms  longest task: ${longest}  longest gap=${result.longestGapMs.toFixed(0)} ms`;
}

async function main(): Promise<void> {
  const text = longAnswer(ANSWER_CHARS);
  const deltas = chunks(text, CHUNKS);
  const started = Date.now();
  const harness = await startHarness();
  console.log(
    `bench:render: ${text.length} characters of markdown in ${deltas.length} chunks, Chromium ${harness.browser.version()}, build + launch ${Date.now() - started} ms`,
  );
  try {
    const { page } = await harness.open(options());
    const throttled = await run(page, deltas, text);
    await harness.open(options(), { query: '?markdownThrottleMs=0' });
    const naive = await run(page, deltas, text);
    console.log(describe('throttled (50 ms)', throttled));
    console.log(describe('every update (naive)', naive));
    const shortestGap = Math.min(...gaps(throttled));
    // Two different things, each under its own name: a main-thread task the Long Tasks API saw (it
    // reports only tasks of 50 ms or more, so 0 means none that long), and the longest wait between
    // two chunk deliveries, which bounds how long the page kept the stream from flowing.
    const longestTask = throttled.longTasks.length > 0 ? Math.max(...throttled.longTasks) : 0;
    const speedup = naive.totalMs / throttled.totalMs;
    if (throttled.longTasks.length === 0) console.log('longest_task_ms=0: no main-thread task reached 50 ms, the Long Tasks threshold');
    console.log(
      `render: renders_per_s=${perSecond(throttled).toFixed(1)} shortest_gap_ms=${shortestGap.toFixed(1)} longest_task_ms=${longestTask.toFixed(0)} longest_chunk_gap_ms=${throttled.longestGapMs.toFixed(0)} speedup_vs_naive=${speedup.toFixed(2)}`,
    );
    // Judged on each gap: a busy machine only stretches gaps, so only a broken throttle can fail this.
    if (shortestGap < THROTTLE_MS - CLOCK_RESOLUTION_MS) {
      console.error(`two markdown renders came ${shortestGap.toFixed(1)} ms apart while streaming; the throttle keeps them ${THROTTLE_MS} ms apart`);
      process.exitCode = 1;
    }
  } finally {
    await harness.close();
    await closeSharedBrowser();
  }
}

await main();
