/**
 * A Firefox page that is still being built while it is read, as real pages are: the tab's first
 * document is swapped for a page that itself swaps to another, which then adds nodes by script
 * for a few seconds. Reads made all through the load (whole reads in document order and the
 * engine's mirror) must come to hold the last node, and once the page holds still the order read
 * gives the walk's tree node for node (tree-order.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AtspiClient, type AtspiRef } from '../../src/core/platform/linux/client';
import { bridgeOf } from '../../src/core/platform/linux/bridges';
import { fetchTree } from '../../src/core/platform/linux/tree-fetch';
import { findNodes } from '../../src/core/ui/query';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { BROWSER_BINARY, describeTree, readTwoWays } from './order-compare';
import { hasHeadlessTools } from './session';

const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && existsSync(BROWSER_BINARY.firefox);
/** Rows the page adds, ten at a time every 100 ms (about 2 s), then its last check box. */
const ROWS = 200;
/** Reads tried before the page must have come whole: far more than its load takes, even on a loaded machine. */
const MAX_READS = 120;

const FIRST = '<!doctype html><title>Loading</title><p>Loading…</p><script>setTimeout(() => location.replace("grow.html"), 300)</script>';
const GROWING = `<!doctype html><title>Growing</title><label><input type="checkbox"> First</label><script>
let n = 0;
const timer = setInterval(() => {
  for (let i = 0; i < 10; i += 1) { const p = document.createElement('p'); p.textContent = 'Row ' + (n += 1); document.body.appendChild(p); }
  if (n >= ${ROWS}) { clearInterval(timer); const l = document.createElement('label'); l.innerHTML = '<input type="checkbox"> Last'; document.body.appendChild(l); }
}, 100);
</script>`;

/** The client, counting its GetMatchesFrom calls. */
function countingOrder(client: AtspiClient, count: () => void): AtspiClient {
  const call = client.call.bind(client);
  return Object.assign(Object.create(client) as AtspiClient, {
    call: (...args: Parameters<AtspiClient['call']>) => {
      if (args[2] === 'GetMatchesFrom') count();
      return call(...args);
    },
  });
}

describe.skipIf(!run)('a Firefox page read while it loads and grows', () => {
  let desktop: Desktop;
  let pid = 0;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    const home = desktop.session.env['HOME'] as string;
    const profile = path.join(home, 'firefox-profile');
    mkdirSync(profile, { recursive: true });
    writeFileSync(path.join(home, 'first.html'), FIRST);
    writeFileSync(path.join(home, 'grow.html'), GROWING);
    ({ pid } = await desktop.launch('firefox-esr', ['--no-remote', '--new-instance', '--profile', profile, `file://${home}/first.html`], {
      MOZ_ACCESSIBILITY_ENABLED: '1',
    }));
  }, 60_000);

  afterAll(async () => desktop?.stop(), 30_000);

  it('comes to hold the page’s last node, through the mirror and through whole reads in document order', async () => {
    const client = await AtspiClient.connect(desktop.session.env);
    try {
      let bus: string | undefined;
      let engineReads = 0;
      let lastByEngine = false;
      let lastByOrder = false;
      let orderedCalls = 0;
      for (let read = 0; read < MAX_READS && !(lastByEngine && lastByOrder); read += 1) {
        const { root, refs } = await desktop.engine.observe(pid, { fresh: true });
        engineReads += 1;
        bus ??= ([...refs.values()][0] as AtspiRef | undefined)?.bus;
        lastByEngine = findNodes(root, { role: 'checkbox', name: 'Last' }).length > 0;
        if (bus === undefined) continue;
        // A whole read of its own (no mirror), in document order, made while the page grows.
        const app = { pid, bus, name: '', gtk4: false, bridge: { ...bridgeOf('Gecko', ''), order: true } };
        const ordered = await fetchTree(
          countingOrder(client, () => (orderedCalls += 1)),
          app,
          { bounds: 'none', maxNodes: 10_000, maxDepth: 1000 },
        );
        lastByOrder = describeTree(ordered).some((line) => line.includes('"Last"'));
      }
      expect({ lastByEngine, lastByOrder }).toEqual({ lastByEngine: true, lastByOrder: true });
      expect(engineReads).toBeLessThan(MAX_READS);
      // The reads above did go by the order, not the walk it falls back to.
      expect(orderedCalls).toBeGreaterThan(0);
    } finally {
      client.close();
    }
    const reads = await readTwoWays(desktop, pid, 'Gecko');
    expect(reads.walked.length).toBeGreaterThan(ROWS);
    expect(reads.ordered).toEqual(reads.walked);
  }, 240_000);
});
