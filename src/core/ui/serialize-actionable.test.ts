import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { Widget } from '../platform/fake/fixture-app';
import { ACTIONABLE_ROLES, serializeTree } from './serialize';

/** Controls the base fixture lacks, with names that repeat their role or hold quotes. */
const EXTRA: Widget[] = [
  { key: 'radio', role: 'radio', name: 'Radio button', bounds: { x: 20, y: 260, width: 120, height: 20 }, checked: true, actions: ['click'] },
  { key: 'switch', role: 'switch', name: 'Wi-Fi', bounds: { x: 20, y: 290, width: 60, height: 24 }, checked: false, actions: ['toggle'] },
  { key: 'toggle-btn', role: 'togglebutton', name: 'Bold', bounds: { x: 20, y: 320, width: 30, height: 30 }, checked: true, actions: ['press'] },
  { key: 'spin', role: 'spinbutton', name: 'Copies', bounds: { x: 20, y: 360, width: 80, height: 28 }, value: 3, settable: true, actions: [] },
  { key: 'area', role: 'textarea', name: 'Notes', bounds: { x: 20, y: 400, width: 200, height: 80 }, value: 'line 1\nline 2', settable: true, actions: [] },
  { key: 'combo', role: 'combobox', name: 'Font', bounds: { x: 20, y: 490, width: 160, height: 28 }, value: 'Sans', actions: ['press'] },
  { key: 'link', role: 'link', name: 'Open "docs" link', bounds: { x: 20, y: 530, width: 100, height: 20 }, actions: ['jump'] },
  { key: 'menu', role: 'menuitem', name: 'File', bounds: { x: 700, y: 0, width: 40, height: 20 }, actions: ['click'] },
  { key: 'tab', role: 'tab', name: 'Tab 2', bounds: { x: 700, y: 30, width: 60, height: 24 }, actions: ['click'] },
  { key: 'icon', role: 'button', name: '', bounds: { x: 700, y: 60, width: 24, height: 24 }, actions: ['press'] },
];

function walk(node: UiNode, visit: (node: UiNode) => void): void {
  if (node.states.visible === false) return;
  const noArea = node.bounds !== undefined && (node.bounds.width <= 0 || node.bounds.height <= 0);
  if (!noArea) visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

describe('serializeTree keeps every actionable node', () => {
  it('prints the id, role and name of each visible actionable node of a realistic tree', async () => {
    const platform = new FakePlatform();
    platform.app(FIXTURE_PID).widgets.push(...EXTRA);
    const engine = new ActionEngine({ platform, clock: new FakeClock() });
    const { root } = await engine.observe(FIXTURE_PID);

    const actionable: UiNode[] = [];
    walk(root, (node) => {
      if (ACTIONABLE_ROLES.has(node.role)) actionable.push(node);
    });
    const roles = new Set(actionable.map((node) => node.role));
    expect([...ACTIONABLE_ROLES].filter((role) => !roles.has(role))).toEqual([]);
    expect(actionable.length).toBeGreaterThan(20);

    // Both styles: full for the CLI and MCP, compact for the agent's model.
    for (const style of ['full', 'compact'] as const) {
      const lines = serializeTree(root, { maxNodes: Number.POSITIVE_INFINITY, maxTokens: Number.POSITIVE_INFINITY, style }).split('\n');
      for (const node of actionable) {
        const head = style === 'compact' ? `${node.id} ` : `[${node.id}] `;
        const line = lines.find((candidate) => candidate.trimStart().startsWith(head));
        expect(line, `no line for ${node.id} (${style})`).toBeDefined();
        const text = (line as string).trimStart();
        expect(text.startsWith(`${head}${node.role}`), `role of ${node.id} in: ${text}`).toBe(true);
        if (node.name !== '')
          expect(text, `name of ${node.id}`).toSatisfy(
            (line: string) => line.includes(JSON.stringify(node.name)) || (style === 'compact' && line.includes(` ${node.name}`)),
          );
      }
    }
  });
});
