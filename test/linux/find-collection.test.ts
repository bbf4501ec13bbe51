/**
 * Big pages in Chromium: `find` through Collection.GetMatches names the node past where the
 * old 5,000-node read stopped, with the id the whole tree gives it; `tree --json` is whole;
 * and a read that is cut says so, and find on it answers NODE_NOT_FOUND, not a near twin.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { DeskpilotError } from '../../src/shared/errors';
import { createLinuxPlatform } from '../../src/core/platform/linux';
import { quickFind } from '../../src/core/tools/quick-find';
import { findNodes, type Match } from '../../src/core/ui/query';
import { trustedMatches } from '../../src/core/ui/read-cut';
import { countNodes, walk } from '../../src/core/ui/tree-index';
import { bigPage } from '../../bench/pages/big-page';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { runCli } from './run-cli';
import { hasHeadlessTools } from './session';
import { waitFor } from './wait-for';
import { chromiumArgs } from './toolkit-apps';

const CHROMIUM = '/usr/bin/chromium';
const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && existsSync(CHROMIUM);
/** Past the 5,000 nodes the read used to stop at without a word. */
const PAGE_NODES = 8000;

describe.skipIf(!run)('find and full reads on a big page in Chromium', () => {
  let desktop: Desktop;
  let pid: number;
  const page = bigPage(PAGE_NODES);

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    const home = desktop.session.env['HOME'] as string;
    const file = path.join(home, 'big.html');
    writeFileSync(file, page.html);
    desktop.session.launch(CHROMIUM, chromiumArgs(path.join(home, 'chromium'), file));
    pid = await waitFor(
      async () => (await desktop.platform.apps.list().catch(() => [])).find((app) => app.windows.length > 0)?.pid,
      60_000,
      'Chromium to register',
    );
    await waitFor(
      async () => {
        // A browser busy laying out a big page can miss a call's deadline: that is still loading.
        const root = (await desktop.engine.observe(pid, { fresh: true }).catch(() => undefined))?.root;
        const loaded = root !== undefined && [...walk(root)].some((node) => node.name === page.lastButton);
        if (!loaded) await new Promise((resolve) => setTimeout(resolve, 500));
        return loaded ? true : undefined;
      },
      180_000,
      'the page to load whole',
    );
  }, 300_000);

  afterAll(async () => desktop?.stop(), 30_000);

  it('finds the last button through Collection with the id the whole tree gives it, and the CLI names that id', async () => {
    // A platform that never read the page, as a CLI's one call is: Collection answers.
    const cold = await createLinuxPlatform(desktop.session.env);
    let found: Match | undefined;
    let byNameAlone: Match | undefined;
    let firstButtons: Match[] | undefined;
    try {
      [found] = (await quickFind(cold, pid, { role: 'button', name: page.lastButton, limit: 5 })) ?? [];
      // A name alone is looked for among the roles a model acts on first: the button, not the cell of the same name.
      [byNameAlone] = (await quickFind(cold, pid, { name: page.lastButton, limit: 1 })) ?? [];
      // A role alone: the bridge asked for the first few matches only (GetMatches' count), placed as the tree places them.
      firstButtons = (await quickFind(cold, pid, { role: 'button', limit: 3 })) ?? [];
    } finally {
      await cold.close();
    }
    expect(found?.node).toMatchObject({ role: 'button', name: page.lastButton });
    expect(byNameAlone?.node).toMatchObject({ role: 'button', name: page.lastButton });
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    expect(root.cut).toBeUndefined();
    const [inTree] = findNodes(root, { role: 'button', name: page.lastButton });
    expect(found?.node.id).toBe(inTree?.node.id);
    expect(firstButtons?.map((match) => match.node.id)).toEqual(findNodes(root, { role: 'button', limit: 3 }).map((match) => match.node.id));
    expect(firstButtons).toHaveLength(3);
    const cli = await runCli(['find', '--pid', String(pid), '--name', page.lastButton], desktop.session.env, 120_000);
    expect(cli.code).toBe(0);
    // Without a role, the cell that holds the button shares its name: both come back, the button with the tree's id.
    expect(cli.stdout).toContain(`[${inTree?.node.id}] button "${page.lastButton}"`);
  }, 240_000);

  it('tree --json gives the whole page, past 5,000 nodes, with no cut', async () => {
    const cli = await runCli(['tree', '--json', '--pid', String(pid)], desktop.session.env, 120_000);
    expect(cli.code).toBe(0);
    const root = JSON.parse(cli.stdout) as UiNode;
    expect(root.cut).toBeUndefined();
    expect(countNodes(root)).toBeGreaterThan(5000);
    expect([...walk(root)].some((node) => node.name === page.lastButton)).toBe(true);
  }, 240_000);

  it('a cut read says where and why, and find on it is NODE_NOT_FOUND (read-cut), never "Act 30" for "Act 3950"', async () => {
    const { root } = await desktop.engine.observe(pid, { fresh: true, maxNodes: 3000 });
    expect(root.cut).toMatchObject({ reason: 'max-nodes', limit: 3000 });
    let caught: unknown;
    try {
      trustedMatches(root, findNodes(root, { name: page.lastButton }), true);
    } catch (error) {
      caught = error;
    }
    expect(DeskpilotError.isInstance(caught) && caught.code).toBe('NODE_NOT_FOUND');
    expect((caught as DeskpilotError).data).toMatchObject({ reason: 'read-cut' });
  }, 240_000);
});
