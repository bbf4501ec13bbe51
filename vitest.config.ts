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

export default defineConfig({
  test: {
    ...RUNNER,
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'eslint/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...PROPERTY_TESTS],
  },
});
