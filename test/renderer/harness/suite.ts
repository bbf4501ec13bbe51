import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { pageErrors, startHarness, type RendererHarness } from './browser';

/**
 * One browser and one reused page for a test file. Uncaught errors and console errors (a CSP
 * violation is one) fail the test that caused them.
 */
export function useHarness(): () => RendererHarness {
  let harness: RendererHarness | undefined;
  beforeAll(async () => {
    harness = await startHarness();
  }, 60_000);
  afterAll(() => harness?.close());
  afterEach(() => {
    if (harness !== undefined) expect(pageErrors(harness.page)).toEqual([]);
  });
  return () => {
    if (harness === undefined) throw new Error('the renderer harness has not started');
    return harness;
  };
}
