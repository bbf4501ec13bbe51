import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'eslint/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    // Real-desktop integration suites start X servers and apps; two cores, so not too many at once.
    maxWorkers: 2,
    testTimeout: 20_000,
    // expect.poll waits for something that will happen; its default 1 s deadline would turn a busy
    // machine into a red run. The test's own timeout is the hang guard instead.
    expect: { poll: { timeout: 15_000 } },
  },
});
