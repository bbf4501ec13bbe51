/**
 * The engine tells the truth on real apps whose effects come late or take their window away:
 * GTK 4 gnome-calculator (a button fires ~250 ms after the press), yad (OK and Cancel close the
 * dialog and end the process), and a Firefox check box (garbled action list, extents that start
 * at -1). Each effect is also read back by a fresh tree read, so a false report fails here.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFalseVerification } from '../../src/core/actions/verdict';
import type { UiNode } from '../../src/shared/ui-node';
import { findNodes, type NodeQuery } from '../../src/core/ui/query';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
const installed = (command: string): boolean => existsSync(`/usr/bin/${command}`);

describe.skipIf(!run)('truthful verification on real apps', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
  }, 60_000);

  afterAll(async () => desktop?.stop());

  async function first(pid: number, query: NodeQuery): Promise<UiNode> {
    const node = findNodes((await desktop.engine.observe(pid, { fresh: true })).root, query)[0]?.node;
    if (node === undefined) throw new Error(`no ${JSON.stringify(query)} in pid ${pid}`);
    return node;
  }

  describe.skipIf(!installed('gnome-calculator'))('gnome-calculator (GTK 4)', () => {
    let pid: number;
    beforeAll(async () => {
      pid = (await desktop.launch('gnome-calculator', [], { GSK_RENDERER: 'cairo' })).pid;
    }, 30_000);

    it('every click at the default settle comes back changed, with the display as the evidence', async () => {
      const display = async (): Promise<string> => {
        const { root } = await desktop.engine.observe(pid, { fresh: true });
        const field = findNodes(root, { role: 'textarea' }).find((match) => match.node.states.editable === true);
        return String(field?.node.value ?? '');
      };
      let falses = 0;
      let expected = await display();
      for (const digit of ['7', '8', '9', '4', '5']) {
        const result = await desktop.engine.run(pid, { action: 'click', id: (await first(pid, { role: 'button', name: digit })).id });
        expected += digit;
        const shown = await display();
        if (isFalseVerification(result, shown === expected)) falses += 1;
        expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, outcome: 'changed' });
        expect(result.changes[0]).toMatch(/textarea: value: /);
        expect(result.changes.join()).not.toMatch(/checked/);
      }
      expect(falses).toBe(0);
    }, 30_000);
  });

  describe.skipIf(!installed('yad'))('yad dialogs', () => {
    it('OK and Cancel close the dialog: a success with outcome closed, never UI_NOT_AVAILABLE', async () => {
      const outcomes: string[] = [];
      for (const name of ['OK', 'Cancel', 'OK', 'Cancel']) {
        const { pid, child } = await desktop.launch('yad', ['--title=Question', '--text=Proceed?']);
        const exited = new Promise((resolve) => child.once('exit', resolve));
        const result = await desktop.engine.run(pid, { action: 'click', id: (await first(pid, { role: 'button', name })).id });
        expect(result.error).toBeUndefined();
        expect(result).toMatchObject({ success: true, changed: true, outcome: 'closed' });
        outcomes.push(String(result.outcome));
        await exited;
      }
      expect(outcomes).toEqual(['closed', 'closed', 'closed', 'closed']);
    }, 60_000);
  });

  describe.skipIf(!installed('firefox-esr'))('Firefox check box', () => {
    let pid: number;
    beforeAll(async () => {
      const home = desktop.session.env['HOME'] as string;
      const profile = path.join(home, 'firefox-profile');
      mkdirSync(profile, { recursive: true });
      const page = path.join(home, 'form.html');
      writeFileSync(page, '<!doctype html><title>Form</title><label><input type="checkbox"> Subscribe</label>');
      pid = (await desktop.launch('firefox-esr', ['--no-remote', '--new-instance', '--profile', profile, `file://${page}`], { MOZ_ACCESSIBILITY_ENABLED: '1' }))
        .pid;
      // The page's document arrives after the window registers.
      for (let tries = 0; tries < 50; tries += 1) {
        if (findNodes((await desktop.engine.observe(pid, { fresh: true })).root, { role: 'checkbox', name: 'Subscribe' }).length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }, 60_000);

    it('clicks through accessibility (never "not on screen"), and the check box flips each time', async () => {
      for (const wanted of [true, false]) {
        const box = await first(pid, { role: 'checkbox', name: 'Subscribe' });
        const result = await desktop.engine.run(pid, { action: 'click', id: box.id });
        expect(result.error).toBeUndefined();
        expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true });
        // Firefox's content process may announce the new state a moment after the engine saw the
        // click's first effect: the box must come to show it, within the poll's bound.
        await expect.poll(async () => (await first(pid, { role: 'checkbox', name: 'Subscribe' })).states.checked === true).toBe(wanted);
      }
    }, 30_000);
  });
});
