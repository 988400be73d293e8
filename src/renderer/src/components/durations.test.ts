import { describe, expect, it } from 'vitest';
import { formatDuration, formatElapsed, formatWhen } from './durations';

describe('durations', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [1234, '1.2 s'],
    [59_900, '59.9 s'],
    [125_000, '2 min 05 s'],
  ])('formatDuration(%d) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it.each([
    [999, '0 s'],
    [12_400, '12 s'],
    [61_000, '1 min 01 s'],
    [3_726_000, '1 h 02 min'],
  ])('formatElapsed(%d) = %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });

  it('says yesterday and days ago by calendar day', () => {
    const now = new Date(2026, 2, 12, 9, 0).getTime();
    expect(formatWhen(new Date(2026, 2, 11, 23, 0).getTime(), now)).toBe('yesterday');
    expect(formatWhen(new Date(2026, 2, 9, 10, 0).getTime(), now)).toBe('3 days ago');
    expect(formatWhen(new Date(2026, 2, 12, 8, 5).getTime(), now)).toBe('08:05');
  });
});
