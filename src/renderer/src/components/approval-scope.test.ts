import { describe, expect, it } from 'vitest';
import { coveredBy, scopeOf } from './approval-scope';
import type { Choice } from './approval-shortcuts';

describe('scopeOf', () => {
  it.each<[string, Choice, readonly string[] | undefined, string | null]>([
    [
      'a write for the session',
      'allow-session',
      ['tool `write_file`'],
      'any `write_file` call in this session',
    ],
    ['a command always', 'always', ['`npm test` exactly'], '`npm test` exactly in this project'],
    [
      'a command for a while',
      'allow-for',
      ['`npm test` exactly'],
      '`npm test` exactly for 30 minutes',
    ],
    [
      'two parts of one line',
      'allow-session',
      ['`npm run build` exactly', '`npm test` exactly'],
      '`npm run build` exactly and `npm test` exactly in this session',
    ],
    ['nothing storable', 'always', [], 'this call only (nothing here can be stored)'],
    ['an old transcript', 'allow-session', undefined, null],
    ['once', 'allow-once', ['`x` exactly'], 'this call only'],
    ['deny', 'deny', undefined, 'this call does not run'],
  ])('%s', (_name, choice, storable, words) => {
    expect(scopeOf(choice, storable, 30)).toBe(words);
  });

  it('lists three rules with commas and a final "and"', () => {
    expect(coveredBy(['`a` exactly', '`b` exactly', 'tool `c`'])).toBe(
      '`a` exactly, `b` exactly and any `c` call',
    );
  });
});
