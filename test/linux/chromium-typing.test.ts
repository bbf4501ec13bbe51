/**
 * Typing into Chromium beside a working user. Chromium's web fields have no EditableText, and
 * focusing one by GrabFocus or a caret move activates its window, so the engine focuses the
 * field by its default action and sends the keys to Chromium's window alone. Another app's
 * window stays active throughout: the X input focus and the active window are read before and
 * after, and the text that arrived is read back by python3-pyatspi.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { findNodes } from '../../src/core/ui/query';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, pyatspiRead, type ToolkitApp } from './toolkit-apps';
import { waitFor } from './wait-for';

const execFileAsync = promisify(execFile);
const BASE = TOOLKIT_APPS.find((app) => app.name === 'chromium');
const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && BASE !== undefined && isInstalled(BASE);

const PAGE = `<!doctype html><html><head><title>Typing page</title></head><body>
<p>Typed beside the user.</p>
<input aria-label="City" value="Lis">
<textarea aria-label="Notes">first line</textarea>
<div contenteditable="true" aria-label="Draft">Dear</div>
</body></html>`;

describe.skipIf(!run)('Chromium typing without taking the focus', () => {
  let desktop: Desktop;
  let pid: number;
  let other: string;

  const xdotool = async (...args: string[]): Promise<string> =>
    (await execFileAsync('xdotool', args, { env: desktop.session.env, timeout: 10_000 })).stdout.trim();

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    const base = BASE as ToolkitApp;
    ({ pid } = await launchAppProcess(desktop, {
      ...base,
      knownText: 'Typed beside the user.',
      prepare: (home) => writeFileSync(path.join(home, 'page.html'), PAGE),
    }));
    // The user's own app, active while Deskpilot types into Chromium.
    await desktop.launch('yad', ['--title=Users app', '--text=busy']);
    other = (await xdotool('search', '--name', '^Users app$')).split('\n')[0] as string;
    await xdotool('windowactivate', '--sync', other);
  }, 150_000);

  afterAll(async () => {
    await desktop?.stop();
  });

  /** The editable element of that name, whatever role the page's markup maps to. */
  const node = async (name: string): Promise<UiNode> =>
    waitFor(
      async () => findNodes((await desktop.engine.observe(pid, { fresh: true })).root, { name }).find((match) => match.node.states.editable === true)?.node,
      30_000,
      `an editable ${name}`,
    );

  const textOf = async (name: string): Promise<string | undefined> =>
    (await pyatspiRead(desktop.session.env, pid)).records.find((record) => record.name === name && record.text !== undefined)?.text;

  it.each([
    ['an input', 'City', 'bon', 'Lisbon'],
    ['a textarea', 'Notes', ' and more', 'first line and more'],
  ])(
    'types at the end of %s, verified, with the other window still active',
    async (_kind, name, text, expected) => {
      const field = await node(name);
      const result = await desktop.engine.run(pid, { id: field.id, action: 'type', text });
      expect(result.success).toBe(true);
      expect({ method: result.method, via: result.via, interrupted: result.interrupted }).toEqual({
        method: 'input',
        via: 'window-keys',
        interrupted: undefined,
      });
      expect(await xdotool('getactivewindow')).toBe(other);
      expect(await xdotool('getwindowfocus')).toBe(other);
      await waitFor(async () => ((await textOf(name)) === expected ? true : undefined), 10_000, `${name} to read "${expected}"`);
    },
    60_000,
  );

  it('types into a contenteditable region', async () => {
    const field = await node('Draft');
    const result = await desktop.engine.run(pid, { id: field.id, action: 'type', text: ' Ada' });
    expect(result).toMatchObject({ success: true, method: 'input', via: 'window-keys' });
    expect(await xdotool('getactivewindow')).toBe(other);
    await waitFor(async () => ((await textOf('Draft'))?.includes('Dear Ada') === true ? true : undefined), 10_000, 'Draft to read "Dear Ada"');
  }, 60_000);

  it('sets a field’s whole text with set_value, though the field has no EditableText', async () => {
    const field = await node('City');
    const result = await desktop.engine.run(pid, { id: field.id, action: 'set_value', value: 'Porto' });
    expect(result).toMatchObject({ success: true, method: 'input', via: 'window-keys' });
    expect(result.interrupted).toBeUndefined();
    expect(await xdotool('getactivewindow')).toBe(other);
    await waitFor(async () => ((await textOf('City')) === 'Porto' ? true : undefined), 10_000, 'City to read "Porto"');
  }, 60_000);
});
