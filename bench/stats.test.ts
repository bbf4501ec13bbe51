import { describe, expect, it } from 'vitest';
import { median, quantile } from './stats';

describe('stats', () => {
  it('takes medians and nearest-rank quantiles', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(
      quantile(
        Array.from({ length: 20 }, (_unused, index) => index + 1),
        0.95,
      ),
    ).toBe(19);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});
