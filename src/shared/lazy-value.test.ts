import { describe, expect, it } from 'vitest';
import { lazyValue } from './lazy-value';

describe('lazyValue', () => {
  it('makes the value on first use, once, and returns that same value after', () => {
    let made = 0;
    const value = lazyValue(() => ({ n: ++made }));
    expect(made).toBe(0);
    const first = value();
    expect(first).toEqual({ n: 1 });
    expect(value()).toBe(first);
    expect(made).toBe(1);
  });

  it('remembers undefined as a value', () => {
    let made = 0;
    const value = lazyValue(() => {
      made++;
      return undefined;
    });
    value();
    value();
    expect(made).toBe(1);
  });

  it('tries again after a failed make', () => {
    let calls = 0;
    const value = lazyValue(() => {
      if (++calls === 1) throw new Error('first');
      return 'ok';
    });
    expect(() => value()).toThrow('first');
    expect(value()).toBe('ok');
  });
});
