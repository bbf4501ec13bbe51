import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'eslint/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    // Real-desktop integration suites start X servers and apps; two cores, so not too many at once.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
