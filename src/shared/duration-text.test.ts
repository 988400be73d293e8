import { describe, expect, it } from 'vitest';
import { durationText } from './duration-text';

describe('durationText', () => {
  it.each([
    [0, '0 ms'],
    [250, '250 ms'],
    [999, '999 ms'],
    [1000, '1 s'],
    [1500, '1.5 s'],
    [1549, '1.5 s'],
    [90_000, '90 s'],
  ])('%d ms → %s', (ms, text) => {
    expect(durationText(ms)).toBe(text);
  });
});
