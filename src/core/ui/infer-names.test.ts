import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { nameFieldsFromLayout, nearestLabel } from './infer-names';

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

describe('nameFieldsFromLayout', () => {
  it('names an unnamed field after the label beside it, marked as a guess, and leaves named fields alone', () => {
    const states = { enabled: true, focused: false };
    const node = (role: UiNode['role'], name: string, bounds: UiNode['bounds']): UiNode => ({
      id: name,
      role,
      platformRole: role,
      name,
      states,
      actions: [],
      ...(bounds === undefined ? {} : { bounds }),
    });
    const form = {
      ...node('group', 'form', box(0, 0, 400, 200)),
      children: [node('label', 'Phone', box(10, 10, 60)), node('textfield', '', box(80, 10)), node('textfield', 'Named', box(80, 50))],
    };
    nameFieldsFromLayout({ ...node('window', 'App', box(0, 0, 500, 300)), children: [form] });
    expect(form.children[1]).toMatchObject({ name: 'Phone', nameFrom: 'geometry' });
    expect(form.children[2]).toMatchObject({ name: 'Named' });
    expect(form.children[2]?.nameFrom).toBeUndefined();
  });
});
