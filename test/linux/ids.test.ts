/** Ids on a real app: a window whose title changes keeps the ids of everything in it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { indexTree, walk } from '../../src/core/ui/tree-index';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools, waitFor } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('stable ids on mousepad', () => {
  let desktop: Desktop;
  let pid: number;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    pid = (await desktop.launch('mousepad')).pid;
  }, 60_000);

  afterAll(async () => desktop?.stop());

  const observe = async (): Promise<UiNode> => (await desktop.engine.observe(pid, { fresh: true })).root;
  const frame = (root: UiNode): UiNode => (root.children ?? []).find((node) => node.role === 'window') as UiNode;

  it('typing one character retitles the window ("*Untitled 1") and keeps the id of every node that did not itself change', async () => {
    const before = await observe();
    const textarea = [...walk(before)].find((node) => node.role === 'textarea' && node.states.editable === true) as UiNode;
    expect(textarea).toBeDefined();
    const title = frame(before).name;
    const result = await desktop.engine.run(pid, { action: 'type', id: textarea.id, text: 'x' });
    expect(result).toMatchObject({ success: true, changed: true, nodeAfter: { id: textarea.id, value: 'x' } });
    const after = await waitFor(
      async () => {
        const root = await observe();
        return frame(root).name !== title ? root : undefined;
      },
      5_000,
      'the title to gain its modified mark',
    );
    expect(frame(after).name).toMatch(/^\*/);

    // Every node present in both reads, matched by where it sits and what it is, has the same id,
    // except the ones whose own name changed: the retitled frame itself.
    const slot = (entry: { parentSlot: string; roleIndex: number; node: UiNode }): string => `${entry.parentSlot}/${entry.node.role}/${entry.roleIndex}`;
    const beforeBySlot = new Map([...indexTree(before).values()].map((entry) => [slot(entry), entry.node]));
    let compared = 0;
    for (const entry of indexTree(after).values()) {
      const old = beforeBySlot.get(slot(entry));
      if (old === undefined || old.name !== entry.node.name) continue;
      compared += 1;
      expect(entry.node.id, `${entry.node.role} "${entry.node.name}"`).toBe(old.id);
    }
    expect(compared).toBeGreaterThan(20);
    // The textarea's id from before the keystroke still works.
    const again = await desktop.engine.run(pid, { action: 'type', id: textarea.id, text: 'y' });
    expect(again).toMatchObject({ success: true, nodeAfter: { value: 'xy' } });
  }, 30_000);
});
