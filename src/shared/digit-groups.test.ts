import { describe, expect, it } from 'vitest';
import { groupDigits } from './digit-groups';

describe('groupDigits', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [12_345, '12,345'],
    [100_000, '100,000'],
    [1_234_567, '1,234,567'],
    [86_400, '86,400'],
    [-1, '-1'],
    [-1000, '-1,000'],
    [-123_456_789, '-123,456,789'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
  ])('%d → %s', (value, shown) => {
    expect(groupDigits(value)).toBe(shown);
  });

  it('writes every whole number as en-US does', () => {
    for (let value = -20_000; value <= 2_000_000; value += 997) {
      expect(groupDigits(value)).toBe(value.toLocaleString('en-US'));
    }
  });

  it.each([1.5, -0.25, 1e21, Number.NaN, Number.POSITIVE_INFINITY])(
    'leaves %d to toLocaleString',
    (value) => {
      expect(groupDigits(value)).toBe(value.toLocaleString('en-US'));
    },
  );
});
