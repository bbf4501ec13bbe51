/**
 * GTK 4 bounds hit their widgets: the center of each widget, computed from the bounds we report,
 * is clicked with the real pointer (xdotool) and the app's own state (read back by us and by
 * python3-pyatspi) shows which widget took the click. GTK 4 reports extents relative to its
 * window's surface, and a popover (a drop-down's list) is a surface of its own, so the list's
 * rows are the case that was one row (32 px) off. gtk4-widget-factory's header bar window covers
 * client-side decorations. Under openbox and with no window manager.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectionOf } from '../../src/core/actions/choose-option';
import { walk } from '../../src/core/ui/tree-index';
import type { UiNode } from '../../src/shared/ui-node';
import { startDesktop, type Desktop, type LaunchedApp } from './desktop';
import { hasHeadlessTools, waitFor } from './session';
import { pyatspiRead } from './toolkit-apps';

/** How long a click's effect is waited for: a hang guard, not a speed check (a loaded 2-core machine is slow). */
const WAIT_MS = 15_000;

const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && existsSync('/usr/bin/gtk4-demo') && existsSync('/usr/bin/xdotool');

describe.skipIf(!run).each([{ openbox: true }, { openbox: false }])('GTK 4 bounds (openbox: $openbox)', ({ openbox }) => {
  let desktop: Desktop;
  let app: LaunchedApp;

  beforeAll(async () => {
    desktop = await startDesktop({ openbox });
    app = await desktop.launch('gtk4-demo', ['--run=dropdown']);
  }, 60_000);

  afterAll(async () => {
    app?.child.kill();
    await desktop?.stop();
  });

  const read = async () => desktop.engine.observe(app.pid, { fresh: true, bounds: 'interactive' });
  const find = async (test: (node: UiNode) => boolean): Promise<UiNode | undefined> => [...walk((await read()).root)].find(test);
  const box = (node: UiNode): boolean => node.role === 'combobox' && node.name === 'Dropdowns';

  /** Clicks the center of the bounds with the real pointer. */
  async function clickCenter(node: UiNode | undefined): Promise<void> {
    const bounds = node?.bounds;
    if (bounds === undefined) throw new Error(`no bounds for ${node?.role ?? 'a missing node'}`);
    const [x, y] = [Math.round(bounds.x + bounds.width / 2), Math.round(bounds.y + bounds.height / 2)];
    await promisify(execFile)('xdotool', ['mousemove', String(x), String(y), 'click', '1'], { env: desktop.session.env });
  }

  async function shownByPyatspi(): Promise<string | undefined> {
    const { records } = await pyatspiRead(desktop.session.env, app.pid);
    const at = records.findIndex((record) => record.role === 'combo box');
    const next = records.slice(at + 1).findIndex((record) => record.role === 'combo box');
    return records.slice(at + 1, next < 0 ? undefined : at + 1 + next).find((record) => record.role === 'label' && record.name !== '(None)')?.name;
  }

  it('a click at the center of a check box and a spin button hits that widget', async () => {
    const check = await find((node) => node.role === 'checkbox');
    const before = check?.states.checked === true;
    await clickCenter(check);
    await waitFor(
      async () => ((await find((node) => node.role === 'checkbox'))?.states.checked === !before ? true : undefined),
      WAIT_MS,
      'the check box to toggle',
    );

    const spin = (node: UiNode): boolean => node.role === 'spinbutton';
    const focusedIn = (node: UiNode | undefined): boolean => node !== undefined && [...walk(node)].some((each) => each.states.focused);
    expect(focusedIn(await find(spin))).toBe(false);
    await clickCenter(await find(spin));
    await waitFor(async () => (focusedIn(await find(spin)) ? true : undefined), WAIT_MS, 'the spin button to take focus');
  }, 60_000);

  it('in a window with client-side decorations (a header bar), check boxes are hit too', async () => {
    const factory = await desktop.launch('gtk4-widget-factory');
    try {
      const checks = async () =>
        [...walk((await desktop.engine.observe(factory.pid, { fresh: true, bounds: 'interactive' })).root)].filter(
          (node) => node.role === 'checkbox' && node.states.enabled && (node.bounds?.width ?? 0) > 0,
        );
      for (const check of (await checks()).slice(0, 2)) {
        const before = check.states.checked === true;
        await clickCenter(check);
        await waitFor(
          async () => ((await checks()).find((node) => node.id === check.id)?.states.checked === !before ? true : undefined),
          WAIT_MS,
          `${check.name} to toggle`,
        );
      }
    } finally {
      await desktop.quit(factory);
    }
  }, 60_000);

  it('a click at the center of a drop-down, then of a row in its popup, chooses that row', async () => {
    for (const wait of ['5 minutes', '2 minutes', '20 minutes']) {
      await clickCenter(await find(box));
      const row = await waitFor(
        async () => {
          const list = [...walk((await find(box)) as UiNode)].find((node) => node.role === 'list');
          return list?.children?.find((item) => [...walk(item)].some((node) => node.role === 'label' && node.name === wait));
        },
        WAIT_MS,
        'the popup to list its rows',
      );
      // The bounds an action asks for on demand agree with the tree's.
      const tree = await read();
      const fresh = [...walk(tree.root)].find((node) => node.id === row.id) as UiNode;
      expect(await desktop.platform.accessibility.bounds?.(tree.refs.get(row.id), fresh)).toEqual(row.bounds);
      await clickCenter(row);
      await waitFor(async () => (selectionOf((await find(box)) as UiNode) === wait ? true : undefined), WAIT_MS, `the box to show ${wait}`);
      expect(await shownByPyatspi()).toBe(wait);
    }
  }, 90_000);
});
