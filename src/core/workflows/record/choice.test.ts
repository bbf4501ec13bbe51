import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import type { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import { comboOf } from './choice';
import { DemonstrationRecorder } from './demonstration';

const states = { enabled: true, focused: false };
const node = (id: string, role: UiNode['role'], name: string, extra: Partial<UiNode> = {}): UiNode => ({
  id,
  role,
  platformRole: role,
  name,
  states,
  actions: [],
  ...extra,
});
const at = (y: number) => ({ bounds: { x: 0, y, width: 100, height: 30 } });

/** A form with a Plan combo box, its list open or shut, showing `value`. */
function form(open: boolean, value?: string): UiNode {
  const items = [node('free', 'menuitem', 'Free', at(30)), node('pro', 'menuitem', 'Pro', at(60))];
  const combo = node('plan', 'combobox', 'Plan', {
    ...at(0),
    ...(value === undefined ? {} : { value }),
    children: open ? [node('menu', 'menu', '', { children: items })] : [],
  });
  return node('app', 'application', 'Form', {
    children: [node('win', 'window', 'Sign up', { children: [combo, node('other', 'menuitem', 'Quit', at(200))] })],
  });
}

describe('comboOf', () => {
  it('finds the combo box an item of its open list belongs to, and nothing for other items', () => {
    const tree = form(true);
    const pro = tree.children?.[0]?.children?.[0]?.children?.[0]?.children?.[1] as UiNode;
    expect(comboOf(tree, pro)?.name).toBe('Plan');
    expect(comboOf(tree, tree.children?.[0]?.children?.[1] as UiNode)).toBeUndefined();
  });
});

describe('DemonstrationRecorder and combo boxes', () => {
  it('records opening the list and clicking an item as one set_value on the box, with the item as a parameter', async () => {
    // What the app shows after each event: the list opens on the first click, closes on the choice.
    const trees = [form(false), form(true), form(false, 'Pro')];
    let reads = 0;
    const engine = { observe: () => Promise.resolve({ root: trees[Math.min(reads++, trees.length - 1)] }) } as unknown as ActionEngine;
    const recorder = new DemonstrationRecorder({ engine, pid: 1, clock: new FakeClock() });
    await recorder.start();
    await recorder.push({ kind: 'button', x: 50, y: 15 });
    await recorder.push({ kind: 'button', x: 50, y: 75 });
    const workflow = await recorder.finish('plan', {});
    expect(recorder.notes).toEqual([]);
    expect(workflow.steps).toEqual([
      expect.objectContaining({
        action: 'set_value',
        target: expect.objectContaining({ role: 'combobox', name: 'Plan' }),
        value: '{{plan}}',
        expect: { value: '{{plan}}' },
      }),
    ]);
    expect(workflow.parameters).toEqual({ plan: { description: 'Plan', default: 'Pro' } });
  });
});
