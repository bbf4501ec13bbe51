/**
 * Chromium's check boxes and buttons are pressed through accessibility (Action.DoAction), not
 * with a synthetic click: its GetActions answers every name blank, so the engine asks the
 * names one by one as pyatspi does. The effect is read back by python3-pyatspi: the check box
 * is checked, and the button's click handler renamed the page (its document's name).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { findNodes } from '../../src/core/ui/query';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, pyatspiRead, type ToolkitApp } from './toolkit-apps';
import { waitFor } from './wait-for';

const BASE = TOOLKIT_APPS.find((app) => app.name === 'chromium');
const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && BASE !== undefined && isInstalled(BASE);

const PAGE = `<!doctype html><html><head><title>Press page</title></head><body>
<p>Pressed through accessibility.</p>
<label><input type="checkbox" id="agree"> Agree</label>
<button onclick="document.title = 'Sent ' + (++window.sends)">Send</button>
<script>window.sends = 0;</script>
</body></html>`;

describe.skipIf(!run)('Chromium presses through accessibility', () => {
  let desktop: Desktop;
  let pid: number;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    const base = BASE as ToolkitApp;
    const app: ToolkitApp = {
      ...base,
      knownText: 'Pressed through accessibility.',
      prepare: (home) => writeFileSync(path.join(home, 'page.html'), PAGE),
    };
    ({ pid } = await launchAppProcess(desktop, app));
  }, 150_000);

  afterAll(async () => {
    await desktop?.stop();
  });

  const node = async (role: string, name: string): Promise<UiNode> =>
    waitFor(async () => findNodes((await desktop.engine.observe(pid, { fresh: true })).root, { role, name })[0]?.node, 30_000, `${role} ${name}`);

  it('checks a check box by its action, read back by pyatspi', async () => {
    const box = await node('checkbox', 'Agree');
    const result = await desktop.engine.run(pid, { id: box.id, action: 'click' });
    expect(result.success).toBe(true);
    expect({ method: result.method, via: result.via, interrupted: result.interrupted }).toEqual({
      method: 'accessibility',
      via: 'action',
      interrupted: undefined,
    });
    await waitFor(
      async () =>
        (await pyatspiRead(desktop.session.env, pid)).records.some((r) => r.role === 'check box' && r.name.includes('Agree') && r.states.includes('checked'))
          ? true
          : undefined,
      10_000,
      'pyatspi to see Agree checked',
    );
  }, 60_000);

  it('presses a button by its action, its click handler runs', async () => {
    const button = await node('button', 'Send');
    const result = await desktop.engine.run(pid, { id: button.id, action: 'click' });
    expect(result.success).toBe(true);
    expect({ method: result.method, via: result.via }).toEqual({ method: 'accessibility', via: 'action' });
    await waitFor(
      async () => ((await pyatspiRead(desktop.session.env, pid)).records.some((r) => r.name.includes('Sent 1')) ? true : undefined),
      10_000,
      'pyatspi to see the page renamed "Sent 1"',
    );
  }, 60_000);
});
