import { describe, expect, it } from 'vitest';
import { nearestLabel } from './infer-names';

const box = (x: number, y: number, width = 120, height = 24) => ({ x, y, width, height });

describe('nearestLabel', () => {
  const labels = [
    { name: 'Name', bounds: box(10, 10, 60) },
    { name: 'City', bounds: box(10, 50, 60) },
    { name: 'Notes', bounds: box(100, 90, 60, 16) },
    { name: 'Far away', bounds: box(10, 400, 60) },
  ];

  it('takes the nearest label on the same row to the left', () => {
    expect(nearestLabel(box(80, 10), labels)).toBe('Name');
    expect(nearestLabel(box(80, 52), labels)).toBe('City');
  });

  it('takes a label directly above when none is beside', () => {
    expect(nearestLabel(box(100, 110, 200, 80), labels)).toBe('Notes');
  });

  it('guesses nothing when no label is close, or the label sits to the right', () => {
    expect(nearestLabel(box(80, 250), labels)).toBeUndefined();
    expect(nearestLabel(box(0, 400, 5), [{ name: 'Right', bounds: box(20, 400, 60) }])).toBeUndefined();
    expect(nearestLabel(box(80, 10), [{ name: '  ', bounds: box(10, 10, 60) }])).toBeUndefined();
  });
});
