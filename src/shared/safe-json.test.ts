import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, safeJsonStringify } from './safe-json';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? { k: value } : [value];
  return value;
}

describe('nestsDeeperThan', () => {
  it.each([
    ['a string', 'x', 0, false],
    ['an empty object at limit 1', {}, 1, false],
    ['an empty object at limit 0', {}, 0, true],
    ['3 levels at limit 3', nested(3), 3, false],
    ['4 levels at limit 3', nested(4), 3, true],
    ['200,000 levels', nested(200_000), 64, true],
  ])('%s', (_name, value, limit, expected) => {
    expect(nestsDeeperThan(value, limit)).toBe(expected);
  });
});

describe('safeJsonStringify', () => {
  it('writes ordinary values exactly as JSON.stringify does', () => {
    const value = { a: [1, 'two', null, { b: true }], c: 'é\u202e<b>' };
    expect(safeJsonStringify(value)).toBe(JSON.stringify(value));
    expect(safeJsonStringify(value, { space: 2 })).toBe(JSON.stringify(value, null, 2));
    expect(safeJsonStringify(nested(100))).toBe(JSON.stringify(nested(100)));
  });

  it('cuts a value nested 200,000 deep at the limit instead of throwing', () => {
    const value = nested(200_000);
    expect(() => JSON.stringify(value)).toThrow(/call stack/);
    const text = safeJsonStringify(value, { maxDepth: 5 });
    const parsed = JSON.parse(text) as unknown;
    expect(nestsDeeperThan(parsed, 5)).toBe(false);
    expect(text).toContain('nested deeper than 5 levels');
    expect(text.length).toBeLessThan(200);
  });

  it('never throws, even for values JSON cannot hold', () => {
    expect(safeJsonStringify({ n: 10n })).toMatch(/cannot be written as JSON/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(safeJsonStringify(cycle)).toMatch(/cannot be written as JSON/);
    expect(safeJsonStringify(undefined)).toBe('null');
  });
});
