/**
 * A workflow step on a real GTK 4 drop-down (GtkDropDown, gtk4-demo's "Selections" demo):
 * the step chooses an item from the box's popup through accessibility (the box's own button
 * opens it, the row is selected through the list and the list activated), the runner verifies
 * the value the box shows, and python3-pyatspi's read of the app confirms it independently.
 * A value the list does not offer halts the run with the items it does offer, and the box keeps
 * its choice: nothing is picked in its place.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectionOf } from '../../src/core/actions/choose-option';
import { walk } from '../../src/core/ui/tree-index';
import { parseWorkflow } from '../../src/core/workflows/load';
import { resolveValues } from '../../src/core/workflows/params';
import { runWorkflow } from '../../src/core/workflows/runner';
import { type Desktop, type LaunchedApp } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';
import { pyatspiRead } from './toolkit-apps';

const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && existsSync('/usr/bin/gtk4-demo');

const PICK = parseWorkflow(
  JSON.stringify({
    format: 'deskpilot-workflow',
    version: 1,
    name: 'pick a wait',
    app: { name: 'gtk4-demo' },
    parameters: { wait: { description: 'How long', default: '5 minutes' } },
    steps: [
      {
        action: 'set_value',
        intent: 'choose how long to wait',
        target: { window: { role: 'window', title: 'Selections' }, role: 'combobox', name: 'Dropdowns' },
        value: '{{wait}}',
        expect: { value: '{{wait}}' },
      },
    ],
  }),
);

describe.skipIf(!run)('a workflow step on a GTK 4 drop-down', () => {
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

  /** The text python3-pyatspi reads in the first drop-down, past GTK's "(None)" placeholder. */
  async function shownByPyatspi(): Promise<string | undefined> {
    const { records } = await pyatspiRead(desktop.session.env, app.pid);
    const box = records.findIndex((record) => record.role === 'combo box');
    const next = records.slice(box + 1).findIndex((record) => record.role === 'combo box');
    const inside = records.slice(box + 1, next < 0 ? undefined : box + 1 + next);
    return inside.find((record) => record.role === 'label' && record.name !== '(None)')?.name;
  }

  async function shownByUs(): Promise<string> {
    const { root } = await desktop.engine.observe(app.pid, { fresh: true });
    const box = [...walk(root)].find((node) => node.role === 'combobox' && node.name === 'Dropdowns');
    return box === undefined ? '' : selectionOf(box);
  }

  it('chooses each value from the popup and verifies it on the box', async () => {
    expect(await shownByUs()).toBe('1 minute');
    for (const wait of ['5 minutes', '20 minutes']) {
      const given = { wait };
      const report = await runWorkflow(PICK, { engine: desktop.engine, platform: desktop.platform, pid: app.pid, values: resolveValues(PICK, given), given });
      expect(report.status, JSON.stringify(report.halt)).toBe('completed');
      expect(await shownByUs()).toBe(wait);
      expect(await shownByPyatspi()).toBe(wait);
    }
  }, 90_000);

  it('halts on a value the list does not offer, names what it offers, and leaves the choice as it was', async () => {
    const given = { wait: '3 hours' };
    const report = await runWorkflow(PICK, {
      engine: desktop.engine,
      platform: desktop.platform,
      pid: app.pid,
      values: resolveValues(PICK, given),
      given,
      waitMs: 1_000,
    });
    expect(report.status).toBe('halted');
    expect(report.halt).toMatchObject({ step: 1, code: 'action_failed', message: expect.stringContaining('"5 minutes"') });
    expect(await shownByUs()).toBe('20 minutes');
    expect(await shownByPyatspi()).toBe('20 minutes');
  }, 90_000);
});
