import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { centerOf, interpolate } from './geometry';
import { resolveModifiers } from './modifiers';

const node = (extra: Partial<UiNode>): UiNode => ({
  id: 'n',
  role: 'button',
  platformRole: 'b',
  name: 'B',
  states: { enabled: true, focused: false },
  actions: [],
  ...extra,
});

describe('geometry', () => {
  it('finds the centre of the bounds', () => {
    expect(centerOf(node({ bounds: { x: 10, y: 20, width: 101, height: 30 } }))).toEqual({ x: 61, y: 35 });
  });

  it('refuses nodes with no bounds, empty bounds or not showing', () => {
    expect(() => centerOf(node({}))).toThrow(/not on screen/);
    expect(() => centerOf(node({ bounds: { x: 0, y: 0, width: 0, height: 5 } }))).toThrow(/not on screen/);
    expect(() => centerOf(node({ bounds: { x: 0, y: 0, width: 5, height: 5 }, states: { enabled: true, focused: false, visible: false } }))).toThrow();
  });

  it('interpolates 10 evenly spaced points ending on the target', () => {
    const points = interpolate({ x: 0, y: 0 }, { x: 100, y: -50 });
    expect(points).toHaveLength(10);
    expect(points[0]).toEqual({ x: 10, y: -5 });
    expect(points[4]).toEqual({ x: 50, y: -25 });
    expect(points[9]).toEqual({ x: 100, y: -50 });
  });
});

describe('resolveModifiers', () => {
  it('maps cmd to the command key on macOS and to ctrl elsewhere', () => {
    expect(resolveModifiers(['cmd', 'shift'], 'meta')).toEqual(['shift', 'meta']);
    expect(resolveModifiers(['cmd', 'shift'], 'ctrl')).toEqual(['ctrl', 'shift']);
  });

  it('maps aliases and removes duplicates in a fixed order', () => {
    expect(resolveModifiers(['option', 'control', 'super', 'alt'], 'ctrl')).toEqual(['ctrl', 'alt', 'meta']);
    expect(resolveModifiers(['win'], 'ctrl')).toEqual(['meta']);
  });
});
