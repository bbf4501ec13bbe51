import { describe, expect, it } from 'vitest';
import { CfRuntime } from './cf';
import { FakeNative, asNative } from './testing/fake-native';

describe('CfRuntime decoding against a strict fake', () => {
  const setup = () => {
    const fake = new FakeNative({ apps: [], trusted: true, granted: true });
    return { fake, cf: new CfRuntime(asNative(fake)) };
  };

  it('reads numbers as kCFNumberDoubleType and AXValues with their own type', () => {
    const { fake, cf } = setup();
    const number = fake.heap.add({ kind: 'number', value: 2.5, type: 3 });
    const point = fake.heap.add({ kind: 'axValue', type: 1, point: { x: 1, y: 2 } });
    const error = fake.heap.add({ kind: 'axValue', type: 5, error: -25204 });
    expect([cf.toJs(number), cf.toJs(point), cf.toJs(error)]).toEqual([2.5, { x: 1, y: 2 }, { axError: -25204 }]);
  });

  it('the fake rejects a CFNumberType or AXValueType that does not match the out parameter', () => {
    const { fake } = setup();
    const number = fake.heap.add({ kind: 'number', value: 2.5, type: 13 });
    const point = fake.heap.add({ kind: 'axValue', type: 1, point: { x: 1, y: 2 } });
    expect(() => fake.CFNumberGetValue(number, 3, [0])).toThrow(/type 3/);
    expect(() => fake.AXValueGetSize(point, 1, {})).toThrow(/AXValueGetValue/);
    expect(() => fake.AXValueGetPoint(point, 2, {})).toThrow(/AXValueGetValue/);
    expect(fake.AXValueGetPoint(point, 1, {})).toBe(true);
  });
});
