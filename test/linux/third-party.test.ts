/** The same actions on real third-party GTK apps from Debian: gtk3-widget-factory, zenity forms, gtk4-widget-factory. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { findNodes, type NodeQuery } from '../../src/core/ui/query';
import { walk } from '../../src/core/ui/tree-index';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('third-party GTK apps', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
  }, 60_000);

  afterAll(async () => desktop?.stop());

  async function nodes(pid: number, query: NodeQuery & { enabled?: boolean }): Promise<UiNode[]> {
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    return findNodes(root, query)
      .map((match) => match.node)
      .filter((node) => query.enabled === undefined || node.states.enabled === query.enabled);
  }

  describe('gtk3-widget-factory', () => {
    let pid: number;
    beforeAll(async () => {
      pid = (await desktop.launch('gtk3-widget-factory')).pid;
    }, 30_000);

    it('set_value on an entry', async () => {
      const entry = (await nodes(pid, { role: 'textfield', enabled: true })).find((node) => node.value === 'entry') as UiNode;
      const result = await desktop.engine.run(pid, { action: 'set_value', id: entry.id, value: 'set by deskpilot' });
      expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { value: 'set by deskpilot' } });
    });

    it('click on a check button', async () => {
      const box = (await nodes(pid, { role: 'checkbox', name: 'checkbutton', enabled: true })).find((node) => !node.states.checked) as UiNode;
      const result = await desktop.engine.run(pid, { action: 'click', id: box.id });
      expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { states: { checked: true } } });
    });

    it('type into an entry', async () => {
      const entry = (await nodes(pid, { role: 'textfield', enabled: true })).find((node) => node.value === 'set by deskpilot') as UiNode;
      const result = await desktop.engine.run(pid, { action: 'type', id: entry.id, text: ' & typed!' });
      expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { value: 'set by deskpilot & typed!' } });
    });

    it('set_value on a slider through Value', async () => {
      const slider = (await nodes(pid, { role: 'slider', enabled: true }))[0] as UiNode;
      const result = await desktop.engine.run(pid, { action: 'set_value', id: slider.id, value: 20 });
      expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { value: 20 } });
    });
  });

  describe('zenity --forms', () => {
    let pid: number;
    beforeAll(async () => {
      pid = (
        await desktop.launch('zenity', [
          '--forms',
          '--title=Sign up',
          '--add-entry=First name',
          '--add-password=Secret',
          '--add-combo=Plan',
          '--combo-values=Free|Pro',
        ])
      ).pid;
    }, 30_000);

    it('set_value and type into the form, never reading the password', async () => {
      const first = (await nodes(pid, { role: 'textfield', enabled: true })).find((node) => !node.states.secret);
      const set = await desktop.engine.run(pid, { action: 'set_value', id: (first as UiNode).id, value: 'Ada' });
      expect(set).toMatchObject({ success: true, method: 'accessibility', nodeAfter: { value: 'Ada' } });
      const typed = await desktop.engine.run(pid, { action: 'type', id: (first as UiNode).id, text: ' L.' });
      expect(typed).toMatchObject({ success: true, method: 'accessibility', nodeAfter: { value: 'Ada L.' } });
      const secret = (await nodes(pid, { role: 'textfield' })).find((node) => node.states.secret) as UiNode;
      await desktop.engine.run(pid, { action: 'set_value', id: secret.id, value: 'hunter2' });
      const { root } = await desktop.engine.observe(pid, { fresh: true });
      expect(JSON.stringify(root)).not.toContain('hunter2');
    });

    it('click OK ends zenity, and the result says the process exited', async () => {
      const ok = (await nodes(pid, { role: 'button', name: 'OK' }))[0] as UiNode;
      const result = await desktop.engine.run(pid, { action: 'click', id: ok.id, settleMs: 300 });
      expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, changes: ['the process exited'] });
    });
  });

  describe('gtk4-widget-factory', () => {
    let pid: number;
    beforeAll(async () => {
      pid = (await desktop.launch('gtk4-widget-factory')).pid;
    }, 30_000);

    it('clicks a GTK4 check box, which has no action, by input at window-corrected extents', async () => {
      const box = (await nodes(pid, { role: 'checkbox', enabled: true })).find((node) => !node.states.checked) as UiNode;
      const result = await desktop.engine.run(pid, { action: 'click', id: box.id, settleMs: 150 });
      expect(result.error, JSON.stringify(result.error)).toBeUndefined();
      expect(result).toMatchObject({ success: true, method: 'input', changed: true, nodeAfter: { states: { checked: true } } });
    });

    it('reads values and sets a GTK4 slider', async () => {
      const { root } = await desktop.engine.observe(pid, { fresh: true });
      expect([...walk(root)].length).toBeGreaterThan(500);
      const slider = findNodes(root, { role: 'slider' })
        .map((match) => match.node)
        .find((node) => node.states.enabled) as UiNode;
      const result = await desktop.engine.run(pid, { action: 'set_value', id: slider.id, value: 10 });
      expect(result.error, JSON.stringify(result.error)).toBeUndefined();
      expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { value: 10 } });
    });
  });
});
