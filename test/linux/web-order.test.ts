/**
 * The document-order read (tree-order.ts) on real browsers: on the same generated page it gives
 * the tree the walk gives, node for node (path, role, name, description, value, states, actions,
 * interfaces), with no GetChildren per parent, and a repeated read asks no node's interfaces again.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { BROWSER_BINARY, openBigPage, readTwoWays, type Browser } from './order-compare';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
/** Big enough for hundreds of parents, small enough for a shared 2-core machine. */
const PAGE_NODES = 1000;

const BROWSERS: [Browser, string][] = [
  ['firefox', 'Gecko'],
  ['chromium', 'Chromium'],
];

describe.each(BROWSERS)('the document-order read in %s', (browser, toolkit) => {
  const present = run && existsSync(BROWSER_BINARY[browser]);
  let desktop: Desktop | undefined;
  let pid = 0;

  beforeAll(async () => {
    if (!present) return;
    desktop = await leaseDesktop({ openbox: true });
    ({ pid } = await openBigPage(desktop, browser, PAGE_NODES));
  }, 300_000);

  afterAll(async () => desktop?.stop(), 30_000);

  it.skipIf(!present)(
    'gives the walk’s tree node for node, without a GetChildren per parent, and keeps interfaces for the next read',
    async () => {
      const reads = await readTwoWays(desktop as Desktop, pid, toolkit);
      const nodes = reads.walked.length;
      expect(nodes).toBeGreaterThan(PAGE_NODES / 2);
      expect(reads.ordered).toEqual(reads.walked);
      expect(reads.walkedCalls.get('GetChildren') ?? 0).toBeGreaterThan(nodes / 4);
      // A handful at most: the lists the order leaves to the walk (nodes the cache placed, the window's top).
      expect(reads.orderedCalls.get('GetChildren') ?? 0).toBeLessThan(nodes / 100);
      expect(reads.repeatCalls.get('GetInterfaces') ?? 0).toBeLessThan(nodes / 100);
    },
    300_000,
  );
});
