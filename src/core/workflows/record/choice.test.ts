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

/** A form whose Plan list opens as an untitled top-level window (Qt's shape), over the Subscribe check box. */
function qtForm(open: boolean, value?: string): UiNode {
  const subscribe = node('g', 'group', '', {
    ...at(60),
    children: [node('sub', 'checkbox', 'Subscribe', { ...at(60), children: [node('lab', 'label', 'Subscribe', at(60))] })],
  });
  const main = node('win', 'window', 'Sign up', {
    bounds: { x: 0, y: 0, width: 100, height: 300 },
    children: [node('plan', 'combobox', 'Plan', { ...at(0), ...(value === undefined ? {} : { value }) }), subscribe],
  });
  const popup = node('pop', 'window', '', {
    bounds: { x: 0, y: 30, width: 100, height: 60 },
    children: [node('list', 'list', '', { children: [node('free', 'listitem', 'Free', at(30)), node('pro', 'listitem', 'Pro', at(60))] })],
  });
  return node('app', 'application', 'Form', { children: open ? [main, popup] : [main] });
}

describe('DemonstrationRecorder and a popup over another control', () => {
  const record = async (trees: UiNode[], clicks: [number, number][]) => {
    let reads = 0;
    const engine = { observe: () => Promise.resolve({ root: trees[Math.min(reads++, trees.length - 1)] }) } as unknown as ActionEngine;
    const recorder = new DemonstrationRecorder({ engine, pid: 1, clock: new FakeClock() });
    await recorder.start();
    for (const [x, y] of clicks) await recorder.push({ kind: 'button', x, y });
    return { workflow: await recorder.finish('plan', {}), notes: recorder.notes };
  };

  it('a click on an item of a list in its own window, above the check box, is the combo box set to the item', async () => {
    const { workflow, notes } = await record(
      [qtForm(false), qtForm(true), qtForm(false, 'Pro')],
      [
        [50, 15],
        [50, 75],
      ],
    );
    expect(notes).toEqual([]);
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

  it('the same point with the list shut is a click on the check box', async () => {
    const { workflow } = await record([qtForm(false), qtForm(false)], [[50, 75]]);
    expect(workflow.steps).toEqual([expect.objectContaining({ action: 'click', target: expect.objectContaining({ role: 'checkbox', name: 'Subscribe' }) })]);
  });

  it('an item of a menu its combo box holds is a choice even when the click that opened it was not seen', async () => {
    const { workflow } = await record([form(true), form(false, 'Pro')], [[50, 75]]);
    expect(workflow.steps).toEqual([
      expect.objectContaining({ action: 'set_value', target: expect.objectContaining({ role: 'combobox', name: 'Plan' }), value: '{{plan}}' }),
    ]);
    expect(workflow.parameters).toEqual({ plan: { description: 'Plan', default: 'Pro' } });
  });
});
