import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * A Vitest reporter that says where a whole run's worker time went. The JSON reporter's
 * startTime/endTime span only a file's tests (first test start to last test end): a file's
 * imports, its beforeAll (an app launch, a build) and afterAll do not show there. This writes,
 * per file: its project, when its run began (ms after the run's start; its end as this process
 * heard of it, less its duration), and the phases Vitest
 * measured: environment, prepare, collect (imports and module transform), setup files, and the
 * file's own duration (its hooks and tests). Then one line: the run's wall time, the worker
 * time the files account for, and the worker time no file held (worker starts, the wait for
 * the last file), counted over `maxWorkers` lanes.
 *
 *   CI=true npx vitest run --reporter=default --reporter=./bench/suite-timeline.ts
 *   SUITE_TIMELINE=/tmp/timeline.json (default /tmp/suite-timeline.json)
 */
export default class SuiteTimeline implements Reporter {
  private readonly start = Date.now();
  private workers = 1;
  /** When each file's end reached this process (ms after the start): Vitest keeps no public start time. */
  private readonly ended = new Map<string, number>();

  onInit(vitest: Vitest): void {
    this.workers = vitest.config.maxWorkers;
  }

  onTestModuleEnd(module: TestModule): void {
    this.ended.set(module.id, Date.now() - this.start);
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const wallMs = Date.now() - this.start;
    const files = modules.map((module) => {
      const diagnostic = module.diagnostic();
      const endedMs = this.ended.get(module.id) ?? wallMs;
      return {
        file: path.relative(module.project.config.root, module.moduleId),
        project: module.project.name,
        startedMs: Math.round(endedMs - diagnostic.duration),
        environmentMs: Math.round(diagnostic.environmentSetupDuration),
        prepareMs: Math.round(diagnostic.prepareDuration),
        collectMs: Math.round(diagnostic.collectDuration),
        setupMs: Math.round(diagnostic.setupDuration),
        durationMs: Math.round(diagnostic.duration),
      };
    });
    // A file holds its worker from its imports (collect and setup end where its run begins) to its end.
    const spans = files.map((file) => ({ from: file.startedMs - file.collectMs - file.setupMs, to: file.startedMs + file.durationMs }));
    const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
    const out = process.env['SUITE_TIMELINE'] ?? '/tmp/suite-timeline.json';
    writeFileSync(out, JSON.stringify({ wallMs, workers: this.workers, files }, null, 1));
    const seconds = (ms: number): string => (ms / 1000).toFixed(1);
    console.log(
      `suite-timeline: wall_s=${seconds(wallMs)} worker_s=${seconds(wallMs * this.workers)} files_s=${seconds(sum(spans.map((span) => span.to - span.from)))}` +
        ` collect_s=${seconds(sum(files.map((file) => file.collectMs + file.setupMs)))} idle_worker_s=${seconds(idleMs(spans, wallMs, this.workers))} → ${out}`,
    );
  }
}

/** Worker time no file held: over the run, in 100 ms steps, the lanes of `workers` that no span covers. */
function idleMs(spans: { from: number; to: number }[], wallMs: number, workers: number): number {
  const stepMs = 100;
  let idle = 0;
  for (let at = 0; at < wallMs; at += stepMs) {
    const busy = spans.filter((span) => span.from <= at && at < span.to).length;
    idle += Math.max(0, workers - busy) * stepMs;
  }
  return idle;
}
