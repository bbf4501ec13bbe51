/**
 * Chromium's cache leaves its page out, so the mirror walks the page and used to re-read every
 * walked node's states on each read (a call a node). It now trusts Chromium's state-changed
 * events instead: this checks, in a real Chromium, that a page script's check and disable
 * reach the patched mirror with no full read, and that the mirror then agrees with a full read.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { walk } from '../../src/core/ui/tree-index';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';
import { waitFor } from './wait-for';
import { chromiumArgs } from './toolkit-apps';
import { compareTrees, fullTree, mirrorStats, mirrorTree } from './mirror-compare';
import { quickFind } from '../../src/core/tools/quick-find';

const CHROMIUM = '/usr/bin/chromium';
const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && existsSync(CHROMIUM);

// The change comes from a timer the click starts, not from the click itself: a script's change, with no input event near it.
const PAGE = `<!doctype html><html><head><title>States</title></head><body><main>
<label><input type="checkbox" id="agree"> Agree</label>
<button id="submit">Submit</button>
<button id="flip" onclick="setTimeout(() => { agree.checked = true; submit.disabled = true; }, 300)">Flip</button>
</main></body></html>`;

const named = (root: UiNode, role: string, name: string): UiNode | undefined => [...walk(root)].find((node) => node.role === role && node.name === name);

describe.skipIf(!run)('Chromium announces page state changes the mirror trusts', () => {
  let desktop: Desktop;
  let pid: number;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    const home = desktop.session.env['HOME'] as string;
    const file = path.join(home, 'states.html');
    writeFileSync(file, PAGE);
    desktop.session.launch(CHROMIUM, chromiumArgs(path.join(home, 'chromium'), file));
    pid = await waitFor(
      async () => (await desktop.platform.apps.list().catch(() => [])).find((app) => app.windows.length > 0)?.pid,
      60_000,
      'Chromium to register',
    );
    // Loaded, and settled: two full reads agree, so the next reads are patched.
    await waitFor(
      async () => {
        const before = mirrorStats(desktop.platform).patchedReads;
        const root = await mirrorTree(desktop.platform, pid).catch(() => undefined);
        const ready = root !== undefined && named(root, 'button', 'Flip') !== undefined && mirrorStats(desktop.platform).patchedReads > before;
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 300));
        return ready ? true : undefined;
      },
      120_000,
      'the page to load and the mirror to settle',
    );
  }, 200_000);

  afterAll(async () => desktop?.stop(), 30_000);

  it('a settled mirror answers find in memory, with the id the tree gives the node', async () => {
    const tree = await mirrorTree(desktop.platform, pid);
    const { fullReads, patchedReads } = mirrorStats(desktop.platform);
    const [found] = (await quickFind(desktop.platform, pid, { name: 'Submit', limit: 1 })) ?? [];
    expect(found?.node).toMatchObject({ role: 'button', name: 'Submit', id: named(tree, 'button', 'Submit')?.id });
    // One patched read and no Collection call per node: the mirror's read is the only one.
    expect(mirrorStats(desktop.platform)).toMatchObject({ fullReads, patchedReads: patchedReads + 1 });
  }, 60_000);

  it('a page script checks a box and disables a button: the patched mirror shows both, as a full read does', async () => {
    const before = await mirrorTree(desktop.platform, pid);
    expect(named(before, 'checkbox', 'Agree')?.states.checked).toBe(false);
    expect(named(before, 'button', 'Submit')?.states.enabled).toBe(true);
    const flip = named(before, 'button', 'Flip');
    expect(flip).toBeDefined();
    const { fullReads: fullBefore, silentChanges: silentBefore } = mirrorStats(desktop.platform);
    const result = await desktop.engine.run(pid, { action: 'click', id: flip?.id as string, settleMs: 30 });
    expect(result.success).toBe(true);
    const after = await waitFor(
      async () => {
        const root = await mirrorTree(desktop.platform, pid);
        const done = named(root, 'checkbox', 'Agree')?.states.checked === true && named(root, 'button', 'Submit')?.states.enabled === false;
        if (!done) await new Promise((resolve) => setTimeout(resolve, 200));
        return done ? root : undefined;
      },
      20_000,
      'the mirror to show the checked box and the disabled button',
    );
    const stats = mirrorStats(desktop.platform);
    // Patched from events alone: no full read came between, and no cache comparison or re-read found a change unannounced.
    expect(stats.fullReads, JSON.stringify(stats)).toBe(fullBefore);
    expect(stats.silentChanges, JSON.stringify(stats)).toBe(silentBefore);
    expect(compareTrees(after, await fullTree(desktop.platform, pid))).toEqual([]);
  }, 60_000);
});
