import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import { FIXTURE_PID, FakePlatform } from '../../platform/fake/fake-platform';
import { walk } from '../../ui/tree-index';
import { DemonstrationRecorder } from './demonstration';
import { elementMatching } from './hit-test';

function node(id: string, role: UiNode['role'], bounds: UiNode['bounds'], children: UiNode[] = []): UiNode {
  return {
    id,
    role,
    platformRole: role,
    name: id,
    states: { enabled: true, focused: false },
    actions: [],
    ...(bounds === undefined ? {} : { bounds }),
    children,
  };
}

describe('a click placed by the platform hit test (macOS AXUIElementCopyElementAtPosition)', () => {
  const label = node('label', 'label', { x: 12, y: 12, width: 40, height: 16 });
  const save = node('save', 'button', { x: 10, y: 10, width: 80, height: 20 }, [label]);
  const saveAs = node('saveAs', 'button', { x: 100, y: 10, width: 80, height: 20 });
  const root = node('root', 'window', { x: 0, y: 0, width: 400, height: 300 }, [save, saveAs]);

  it('finds the node with the hit role and frame, or its clickable ancestor', () => {
    expect(elementMatching(root, { role: 'button', bounds: { x: 100.4, y: 10, width: 80, height: 20 }, secret: false })?.id).toBe('saveAs');
    expect(elementMatching(root, { role: 'label', bounds: { x: 12, y: 12, width: 40, height: 16 }, secret: false })?.id).toBe('save');
  });

  it('gives up (the tree bounds decide) when nothing or two nodes fit, or the hit has no frame', () => {
    const twin = node('root', 'window', undefined, [save, { ...save, id: 'twin', children: [] }]);
    expect(elementMatching(twin, { role: 'button', bounds: { x: 10, y: 10, width: 80, height: 20 }, secret: false })).toBeUndefined();
    expect(elementMatching(root, { role: 'checkbox', bounds: { x: 10, y: 10, width: 80, height: 20 }, secret: false })).toBeUndefined();
    expect(elementMatching(root, { role: 'button', secret: false })).toBeUndefined();
  });

  it.each([true, false])(
    'records typing into a field the hit test calls secret as a secret parameter, even where the tree did not (hit with a frame: %s)',
    async (framed) => {
      const platform = new FakePlatform();
      const clock = new FakeClock();
      const engine = new ActionEngine({ platform, clock });
      const field = [...walk((await engine.observe(FIXTURE_PID, { bounds: 'interactive' })).root)].find((each) => each.name === 'Name') as UiNode;
      const recorder = new DemonstrationRecorder({ engine, pid: FIXTURE_PID, clock });
      await recorder.start();
      const bounds = field.bounds as NonNullable<UiNode['bounds']>;
      const x = bounds.x + 2;
      const y = bounds.y + 2;
      await platform.input.click({ x, y });
      await recorder.push({ kind: 'button', x, y, hit: { role: field.role, ...(framed ? { bounds } : {}), secret: true } });
      await platform.input.typeText('s3cret');
      await recorder.push({ kind: 'key', key: 's', modifiers: [] });
      const workflow = await recorder.finish('secret', {});
      expect(workflow.steps).toEqual([expect.objectContaining({ action: 'set_value', target: expect.objectContaining({ name: 'Name' }), value: '{{name}}' })]);
      expect(workflow.parameters).toEqual({ name: { description: 'Name (secret)', secret: true } });
      expect(JSON.stringify(workflow)).not.toContain('s3cret');
    },
  );
});
