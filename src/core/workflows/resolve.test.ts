import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { locateById } from './locator';
import { resolveLocator } from './resolve';
import { globMatch } from './window';

function node(id: string, role: UiNode['role'], name: string, children: UiNode[] = [], extra: Partial<UiNode> = {}): UiNode {
  return { id, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], children, ...extra };
}

const at = (x: number, y: number): Partial<UiNode> => ({ bounds: { x, y, width: 80, height: 20 } });

function app(...windows: UiNode[]): UiNode {
  return node('app', 'application', 'editor', windows);
}

describe('resolveLocator', () => {
  const tree = app(
    node(
      'w1',
      'window',
      'notes.txt - Editor',
      [node('tb', 'toolbar', '', [node('save', 'button', 'Save', [], at(10, 10)), node('saveas', 'button', 'Save As…', [], at(100, 10))])],
      at(0, 0),
    ),
  );

  it('round-trips a recorded locator by identity', () => {
    const locator = locateById(tree, 'save');
    expect(locator).toMatchObject({
      window: { role: 'window', title: 'notes.txt - Editor' },
      role: 'button',
      name: 'Save',
      path: [{ role: 'toolbar', name: '' }],
    });
    expect(locator?.ordinal).toBeUndefined();
    expect(resolveLocator(tree, locator as never)).toMatchObject({ kind: 'found', rung: 'identity', node: { id: 'save' } });
  });

  it('prefers a toolkit id carried by exactly one node', () => {
    const withIds = app(node('w', 'window', 'x', [node('a', 'button', 'OK', [], { toolkitId: 'ok-1' }), node('b', 'button', 'OK', [], { toolkitId: 'ok-2' })]));
    expect(resolveLocator(withIds, { role: 'button', name: 'OK', toolkitId: 'ok-2' })).toMatchObject({ kind: 'found', by: 'toolkitId', node: { id: 'b' } });
  });

  it('breaks a tie by position only when one candidate sits where the target was', () => {
    const twins = app(node('w', 'window', 'x', [node('a', 'button', 'OK', [], at(10, 10)), node('b', 'button', 'OK', [], at(10, 200))], at(0, 0)));
    expect(resolveLocator(twins, { role: 'button', name: 'OK', bounds: { x: 12, y: 198, width: 80, height: 20 } })).toMatchObject({
      kind: 'found',
      by: 'bounds',
      node: { id: 'b' },
    });
    expect(resolveLocator(twins, { role: 'button', name: 'OK', bounds: { x: 10, y: 100, width: 80, height: 20 } })).toMatchObject({ kind: 'ambiguous' });
  });

  it('relaxes the ancestry to the same role and name, and halts on a miss with near candidates', () => {
    const moved = app(node('w1', 'window', 'renamed', [node('g', 'group', 'Panel', [node('save', 'button', 'Save')])]));
    const locator = locateById(tree, 'save') as never;
    expect(resolveLocator(moved, locator)).toMatchObject({ kind: 'found', rung: 'relaxed' });
    const gone = app(node('w1', 'window', 'notes.txt - Editor', [node('saveas', 'button', 'Save As…')]));
    const missing = resolveLocator(gone, locator);
    expect(missing.kind).toBe('missing');
    expect(missing.kind === 'missing' && missing.candidates[0]).toMatchObject({ id: 'saveas', reason: expect.stringContaining('name is "Save As…"') });
  });

  it('never relaxes an unnamed element onto another', () => {
    const tree2 = app(node('w', 'window', 'a', [node('f', 'textfield', '')]));
    expect(resolveLocator(tree2, { role: 'textfield', name: '', path: [{ role: 'group', name: 'Other' }] }).kind).toBe('missing');
  });
});

describe('globMatch', () => {
  it.each([
    ['* - Mousepad', 'notes.txt - Mousepad', true],
    ['* - Mousepad', 'notes.txt - Gedit', false],
    ['Save*', 'Save As', true],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'acb', false],
    ['exact', 'exact', true],
    ['*', '', true],
  ])('%s against %s', (pattern, title, expected) => {
    expect(globMatch(pattern, title)).toBe(expected);
  });

  it('stays linear on a hostile pattern', () => {
    expect(globMatch(`${'*a'.repeat(500)}b`, 'a'.repeat(1_000))).toBe(false);
  });
});
