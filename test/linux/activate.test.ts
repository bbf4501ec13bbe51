/**
 * Keys reach their app even when another window is active, as Deskpilot's chat window is
 * while the agent works: the engine raises the app through the window manager first
 * (an EWMH _NET_ACTIVE_WINDOW request under openbox). Each effect is read back through the tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { findNodes } from '../../src/core/ui/query';
import { startDesktop, type Desktop } from './desktop';
import { hasHeadlessTools, waitFor } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('activating an app before keys', () => {
  let desktop: Desktop;
  let fixture: number;
  let other: number;

  beforeAll(async () => {
    desktop = await startDesktop({ openbox: true });
    fixture = (await desktop.launchFixture()).pid;
    // Started last, so openbox gives it the focus: it stands in for the chat window.
    other = (await desktop.launch('zenity', ['--entry', '--title', 'Another app', '--text', 'Type here'])).pid;
  }, 60_000);

  afterAll(async () => desktop?.stop());

  const frontmostPid = async (): Promise<number | undefined> => (await desktop.platform.apps.frontmost())?.pid;

  async function textfield(pid: number, name?: string): Promise<UiNode> {
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    const match = findNodes(root, { role: 'textfield', ...(name === undefined ? {} : { name }) })[0];
    if (match === undefined) throw new Error(`no textfield ${name ?? ''} in pid ${pid}`);
    return match.node;
  }

  async function bringOtherForward(): Promise<void> {
    expect(await desktop.platform.apps.activate?.(other)).toBe(true);
    expect(await frontmostPid()).toBe(other);
  }

  it('the other app starts in front', async () => {
    await waitFor(async () => ((await frontmostPid()) === other ? true : undefined), 5_000, 'zenity to be active');
  });

  it("type with an id inserts into the fixture's field without raising it: the active app keeps the focus and gets no text", async () => {
    await bringOtherForward();
    const result = await desktop.engine.run(fixture, { action: 'type', id: (await textfield(fixture, 'Name')).id, text: 'Grace' });
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    expect(result).toMatchObject({ success: true, method: 'accessibility', via: 'insert-text', changed: true, nodeAfter: { value: 'Grace' } });
    expect(result.interrupted).toBeUndefined();
    expect(await frontmostPid()).toBe(other);
    expect((await textfield(other)).value ?? '').toBe('');
  });

  it('key without an id raises the fixture, goes to its focused field, then gives the active window back', async () => {
    // The field gets the focus inside its window first: GTK 3's GrabFocus also presents the
    // window, asynchronously. Waiting for that to land keeps it from undoing the next step.
    const name = await textfield(fixture, 'Name');
    await desktop.platform.accessibility.focus((await desktop.engine.observe(fixture, { fresh: true })).refs.get(name.id), name);
    await waitFor(async () => ((await frontmostPid()) === fixture ? true : undefined), 5_000, 'GrabFocus to present the fixture');
    await bringOtherForward();
    const result = await desktop.engine.run(fixture, { action: 'key', key: 'backspace' });
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    expect(result).toMatchObject({ method: 'input', via: 'keys', interrupted: true });
    await waitFor(async () => ((await textfield(fixture, 'Name')).value === 'Grac' ? true : undefined), 3_000, 'the key to land');
    await waitFor(async () => ((await frontmostPid()) === other ? true : undefined), 3_000, 'the other app to be active again');
    expect((await textfield(other)).value ?? '').toBe('');
  });

  it('an app with no window cannot be activated: false, not a throw', async () => {
    expect(await desktop.platform.apps.activate?.(process.pid)).toBe(false);
  });
});

/**
 * nut-js opens one display per process, the first session's, so this session checks the
 * activation itself (X focus, seen as AT-SPI's active window) and sends no keys.
 */
describe.skipIf(!run)('activating with no window manager', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await startDesktop();
  }, 60_000);

  afterAll(async () => desktop?.stop());

  it('gives the app the input focus directly, back and forth', async () => {
    const fixture = (await desktop.launchFixture()).pid;
    const other = (await desktop.launch('zenity', ['--entry', '--title', 'Another app'])).pid;
    for (const pid of [other, fixture, other]) {
      expect(await desktop.platform.apps.activate?.(pid)).toBe(true);
      expect((await desktop.platform.apps.frontmost())?.pid).toBe(pid);
    }
  });
});
