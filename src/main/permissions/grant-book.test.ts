import { describe, expect, it } from 'vitest';
import { GrantBook } from './grant-book';
import type { PermissionRule } from './permission-rule';

const NPM_TEST: PermissionRule = { kind: 'command', argv: ['npm', 'test'], match: 'exact' };

function clock(start: number): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('GrantBook', () => {
  it('session grants apply only to their session and end with it', () => {
    const book = new GrantBook(clock(0).now);
    book.add({
      folder: '/p',
      rule: NPM_TEST,
      effect: 'exec',
      scope: { kind: 'session', sessionId: 's1' },
    });
    expect(book.active('/p', 's1')).toHaveLength(1);
    expect(book.active('/p', 's2')).toHaveLength(0);
    expect(book.active('/other', 's1')).toHaveLength(0);
    book.endSession('s1');
    expect(book.active('/p', 's1')).toHaveLength(0);
  });

  it('timed grants expire by the injected clock', () => {
    const c = clock(1_000_000);
    const book = new GrantBook(c.now);
    book.add({
      folder: '/p',
      rule: NPM_TEST,
      effect: 'exec',
      scope: { kind: 'until', expiresAt: c.now() + 30 * 60_000 },
    });
    expect(book.active('/p', 'any')).toHaveLength(1);
    c.advance(30 * 60_000 - 1);
    expect(book.active('/p', null)).toHaveLength(1);
    c.advance(1);
    expect(book.active('/p', null)).toHaveLength(0);
  });

  it('records last use and revokes', () => {
    const c = clock(5);
    const book = new GrantBook(c.now);
    const g = book.add({
      folder: '/p',
      rule: NPM_TEST,
      effect: 'exec',
      scope: { kind: 'session', sessionId: 's' },
    });
    expect(g.lastUsedAt).toBeNull();
    c.advance(10);
    book.markUsed(g.id);
    expect(book.active('/p', 's')[0]?.lastUsedAt).toBe(15);
    book.markRuleUsed('/p', { kind: 'command', argv: ['npm', 'test'], match: 'exact' });
    expect(book.ruleLastUsed('/p', NPM_TEST)).toBe(15);
    expect(book.revoke(g.id)).toBe(true);
    expect(book.revoke(g.id)).toBe(false);
    expect(book.active('/p', 's')).toHaveLength(0);
  });

  it('granting the same rule again replaces the old grant', () => {
    const book = new GrantBook(clock(0).now);
    book.add({
      folder: '/p',
      rule: NPM_TEST,
      effect: 'exec',
      scope: { kind: 'session', sessionId: 's' },
    });
    book.add({
      folder: '/p',
      rule: { kind: 'command', argv: ['npm', 'test'], match: 'exact' },
      effect: 'exec',
      scope: { kind: 'session', sessionId: 's' },
    });
    expect(book.active('/p', 's')).toHaveLength(1);
  });
});
