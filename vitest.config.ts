import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The property tier: long random runs with a fixed seed, run by `npm run test:property` (and by
 * CI after `npm test`) so the everyday `npm test` stays units and integration.
 */
export const PROPERTY_TESTS = ['test/linux/mirror-property.test.ts'];

/** What every tier shares. */
export const RUNNER = {
  environment: 'node',
  // Real-desktop integration suites start X servers and apps; two cores, so not too many at once.
  maxWorkers: 2,
  testTimeout: 20_000,
  // expect.poll waits for something that will happen; its default 1 s deadline would turn a busy
  // machine into a red run. The test's own timeout is the hang guard instead.
  expect: { poll: { timeout: 15_000 } },
} as const;

/**
 * The engine's unit tests share their workers (isolate: false): each file otherwise pays a worker
 * start and the core's imports again, about a second apiece on a 2-core machine. They hold no
 * process-wide state. These few do (module mocks, environment stubs, fake timers), so they
 * keep a worker of their own.
 */
export const SHARED_WORKER_TESTS = ['src/core/**/*.test.ts', 'src/shared/**/*.test.ts'];
export const OWN_WORKER_TESTS = ['src/core/platform/darwin/menu-shortcuts.test.ts', 'src/core/workflows/json-schema.test.ts', 'src/core/tools/read.test.ts'];

const ALL_TESTS = ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'eslint/**/*.test.ts', 'bench/**/*.test.ts'];

export default defineConfig({
  test: {
    ...RUNNER,
    projects: [
      {
        extends: true,
        test: { name: 'core', include: SHARED_WORKER_TESTS, exclude: [...configDefaults.exclude, ...OWN_WORKER_TESTS], isolate: false },
      },
      { extends: true, test: { name: 'core-own-worker', include: OWN_WORKER_TESTS } },
      { extends: true, test: { name: 'rest', include: ALL_TESTS, exclude: [...configDefaults.exclude, ...PROPERTY_TESTS, ...SHARED_WORKER_TESTS] } },
    ],
  },
});
