import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { CHROMIUM, pageErrors, startHarness, type RendererHarness } from './browser';

/**
 * One browser and one reused page for a test file. Uncaught errors and console errors (a CSP
 * violation is one) fail the test that caused them. Without Chromium the tests skip, saying why,
 * except on CI (CI set), where a missing browser must fail rather than pass unseen.
 */
export function useHarness(): () => RendererHarness {
  const missing = !existsSync(CHROMIUM) && process.env['CI'] === undefined;
  let harness: RendererHarness | undefined;
  beforeAll(async () => {
    if (!missing) harness = await startHarness();
  }, 60_000);
  afterAll(() => harness?.close());
  beforeEach((context) => context.skip(missing, `no Chromium at ${CHROMIUM}`));
  afterEach(() => {
    if (harness !== undefined) expect(pageErrors(harness.page)).toEqual([]);
  });
  return () => {
    if (harness === undefined) throw new Error('the renderer harness has not started');
    return harness;
  };
}
