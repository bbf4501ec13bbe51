import { configDefaults, defineConfig } from 'vitest/config';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The property tier: long random runs with a fixed seed, run by `npm run test:property` (and by
 * CI after `npm test`) so the everyday `npm test` stays units and integration.
 */
export const PROPERTY_TESTS = ['test/linux/mirror-property.test.ts'];

/** What every tier shares. */
export const RUNNER = {
  environment: 'node',
  // Real-desktop integration suites start X servers and apps; two cores, so not too many at once.
  // Three were measured: no faster on a busy machine, and a GTK 4 input click missed its window.
  maxWorkers: 2,
  testTimeout: 20_000,
  // expect.poll waits for something that will happen; its default 1 s deadline would turn a busy
  // machine into a red run. The test's own timeout is the hang guard instead.
  expect: { poll: { timeout: 15_000 } },
} as const;

/**
 * Unit tests share their workers (isolate: false): each file otherwise pays a worker start and
 * its imports again, about a second apiece on a 2-core machine. They hold no process-wide
 * state. These few do (module mocks, environment stubs, fake timers, patched globals), so they
 * keep a worker of their own; so do the real-desktop, Chromium and forked-host suites (test/linux,
 * test/macos, test/renderer, test/host), which start processes and hold a display.
 */
export const SHARED_WORKER_TESTS = [
  'src/**/*.test.{ts,tsx}',
  'eslint/**/*.test.ts',
  'bench/**/*.test.ts',
  'test/{agent,cli,i18n,mcp,mcp-client,packaging}/**/*.test.ts',
];
export const OWN_WORKER_TESTS = [
  'src/core/platform/darwin/menu-shortcuts.test.ts',
  'src/core/workflows/json-schema.test.ts',
  'src/core/tools/read.test.ts',
  'src/main/controller.test.ts',
  'src/main/host-link/host-process.test.ts',
  'src/main/index.test.ts',
  'src/main/ipc/ipc.test.ts',
  'src/main/settings/settings.test.ts',
  'src/main/settings/transcript-store.test.ts',
  'src/main/shell/tray.test.ts',
  'src/main/update/updates.test.ts',
  'src/main/window/window.test.ts',
  'test/mcp-client/external-tools.test.ts',
];

/**
 * The order `npm test` starts its files in. With two workers the run lasts at least as long
 * as its longest file, and a long file started last leaves one worker idle while it runs: so
 * the longest files go first. Then the files that share a worker (isolate: false), all in a
 * row, since a shared worker is reused only while the next file queued also shares one. Then
 * the rest, longest first.
 *
 * How long a file takes comes from Vitest's cache of the last run; a clean clone (CI) has
 * none, so the slowest files are also named here: the seconds each took in a clean-clone CI
 * run on this 2-core machine (real apps, a forked host, Chromium pages).
 */
export const SLOW_FILES: Readonly<Record<string, number>> = {
  'test/linux/toolkits.test.ts': 46,
  'test/linux/calc.test.ts': 21,
  'test/linux/truth.test.ts': 11,
  'test/renderer/chat.test.ts': 14,
  'test/packaging/packed-app.test.ts': 14,
  'test/linux/gtk4-bounds.test.ts': 12,
  'test/renderer/settings.test.ts': 11,
  'test/linux/web-order.test.ts': 11,
  'test/linux/web-growing.test.ts': 9,
  'test/linux/vision.test.ts': 11,
  'test/linux/find-collection.test.ts': 9,
  'test/linux/mcp.test.ts': 9,
  'test/renderer/states.test.ts': 9,
  'test/renderer/languages.test.ts': 8,
  'test/linux/workflow-replay.test.ts': 7,
  'test/linux/error-rows.test.ts': 6,
  'test/linux/fixture-actions.test.ts': 7,
  'test/host/host.test.ts': 7,
  'test/linux/doctor.test.ts': 6,
  'test/linux/third-party.test.ts': 6,
  'test/linux/chromium-typing.test.ts': 5,
  'test/linux/broken-desktop.test.ts': 5,
  'test/linux/activate.test.ts': 5,
  'test/linux/compact-tree.test.ts': 5,
  'test/renderer/workflows.test.ts': 4,
  'test/linux/overlap.test.ts': 4,
  'test/mcp-client/external-tools.test.ts': 4,
  'test/linux/workflow-dropdown.test.ts': 4,
  'test/linux/agent-e2e.test.ts': 4,
  'test/linux/names.test.ts': 4,
  'test/linux/mcp-session.test.ts': 4,
  'test/linux/act-at-focus.test.ts': 3,
  'test/linux/chromium-mirror-states.test.ts': 3,
};

/** A file expected to take at least this long starts before the shared-worker files. */
const LONG_MS = 5_000;

/** See SLOW_FILES. */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // The base order (failed first, then longest by the cache, then largest) is kept among equals.
    const base = await super.sort(files);
    const expected = (spec: TestSpecification): number => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
      if (cached !== undefined) return cached;
      const relative = path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/');
      return (SLOW_FILES[relative] ?? 0) * 1000;
    };
    const shared = (spec: TestSpecification): boolean => spec.project.config.isolate === false;
    const longestFirst = (specs: TestSpecification[]) => specs.map((spec) => ({ spec, ms: expected(spec) })).sort((a, b) => b.ms - a.ms);
    const own = longestFirst(base.filter((spec) => !shared(spec)));
    return [
      ...own.filter((entry) => entry.ms >= LONG_MS).map((entry) => entry.spec),
      // Grouped by project, so a worker that shares one goes on with files of the same project (the
      // renderer files then reuse one Chromium per worker); the longest of each project first.
      ...longestFirst(base.filter(shared))
        .sort((a, b) => a.spec.project.name.localeCompare(b.spec.project.name))
        .map((entry) => entry.spec),
      ...own.filter((entry) => entry.ms < LONG_MS).map((entry) => entry.spec),
    ];
  }
}

const RENDERER_TESTS = ['test/renderer/**/*.test.ts'];
/**
 * The test/linux files that need one openbox desktop and nothing else: they share a worker and
 * so one desktop per worker (test/linux/shared-desktop.ts), each file cleaned up after. The rest
 * of test/linux keeps a worker apiece: they start a desktop with no window manager, or two at
 * once, or bare sessions they break on purpose, and nut-js holds one display per process.
 * calc also keeps its own: its typed cells failed NODE_NOT_FOUND in whole runs on the shared
 * desktop and passed alone, cause not found. (third-party and truth came back once a click held
 * its button: a press and release back to back missed GTK 4's check box on any desktop.)
 */
export const SHARED_DESKTOP_TESTS = [
  'act-at-focus',
  'agent-e2e',
  'chromium-mirror-states',
  'chromium-press',
  'chromium-typing',
  'find-collection',
  'fixture-actions',
  'gtk4-focus',
  'ids',
  'mcp-session',
  'mcp',
  'shared-desktop',
  'shortcuts',
  'third-party',
  'toolkits',
  'truth',
  'web-budgeted',
  'web-growing',
  'web-order',
  'workflow-app-identity',
  'workflow-dropdown',
  'workflow-replay',
].map((name) => `test/linux/${name}.test.ts`);
const ALL_TESTS = ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'eslint/**/*.test.ts', 'bench/**/*.test.ts'];

export default defineConfig({
  test: {
    ...RUNNER,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'shared-worker', include: SHARED_WORKER_TESTS, exclude: [...configDefaults.exclude, ...OWN_WORKER_TESTS], isolate: false },
      },
      { extends: true, test: { name: 'own-worker', include: OWN_WORKER_TESTS } },
      // The renderer files share a worker and so one Chromium and server per worker
      // (test/renderer/harness/browser.ts); each file still opens a context of its own.
      { extends: true, test: { name: 'renderer', include: RENDERER_TESTS, isolate: false } },
      // Mocks, stubbed env vars and globals are undone between the files that share a worker.
      {
        extends: true,
        test: { name: 'linux-shared', include: SHARED_DESKTOP_TESTS, isolate: false, restoreMocks: true, unstubEnvs: true, unstubGlobals: true },
      },
      {
        extends: true,
        test: {
          name: 'rest',
          include: ALL_TESTS,
          exclude: [...configDefaults.exclude, ...PROPERTY_TESTS, ...SHARED_WORKER_TESTS, ...RENDERER_TESTS, ...SHARED_DESKTOP_TESTS],
        },
      },
    ],
  },
});
