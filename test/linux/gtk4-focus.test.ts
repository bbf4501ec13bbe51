/**
 * A `key` step aimed at an element of a GTK 4 app. GTK 4 (4.8) answers every AT-SPI GrabFocus
 * with "not supported", so the element is focused another way (a click at its centre, which the
 * result reports as taking the user's devices) and the key reaches it: python3-pyatspi reads the
 * typed digit in the spin button, not in the drop-down that had focus before.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walk } from '../../src/core/ui/tree-index';
import type { UiNode } from '../../src/shared/ui-node';
import { type Desktop, type LaunchedApp } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools, waitFor } from './session';
import { pyatspiRead } from './toolkit-apps';

const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && existsSync('/usr/bin/gtk4-demo');

describe.skipIf(!run)('a key step aimed at a GTK 4 element', () => {
  let desktop: Desktop;
  let app: LaunchedApp;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    app = await desktop.launch('gtk4-demo', ['--run=dropdown']);
  }, 60_000);

  afterAll(async () => {
    app?.child.kill();
    await desktop?.stop();
  });

  const spin = async (): Promise<UiNode> =>
    [...walk((await desktop.engine.observe(app.pid, { fresh: true })).root)].find((node) => node.role === 'spinbutton') as UiNode;
  const focusedIn = (node: UiNode): boolean => [...walk(node)].some((each) => each.states.focused);

  it('focuses the element without GrabFocus and the key reaches it', async () => {
    const before = await spin();
    expect(focusedIn(before)).toBe(false);
    const result = await desktop.engine.run(app.pid, { action: 'key', key: '7', id: before.id });
    expect(result.success, JSON.stringify(result)).toBe(true);
    // A click focused it: the result says the pointer was used.
    expect(result).toMatchObject({ method: 'input', interrupted: true });
    expect(focusedIn(await spin())).toBe(true);
    const typed = await waitFor(
      async () =>
        (await pyatspiRead(desktop.session.env, app.pid)).records.find((record) => record.role === 'spin button' && (record.text ?? '').includes('7')),
      10_000,
      'the 7 to reach the spin button',
    );
    expect(typed.states).toContain('focused');
  }, 60_000);
});
