import { describe, expect, it } from 'vitest';
import type { CommandPart } from '../../shared/tool-types';
import {
  describeAccepted,
  describeRule,
  exactRule,
  ruleMatchesPart,
  rulePattern,
  sameRule,
  widenedRule,
  type PermissionRule,
} from './permission-rule';

/** A part as the classifier gives it: the text, and its words (here: split on spaces). */
const part = (text: string, argv: string[] = text.split(' ')): CommandPart => ({
  text,
  argv,
  safe: false,
  reasons: ['x'],
});

const RM_BUILD = exactRule(['rm', 'build']);
const RM_BUILD_WIDE = widenedRule(['rm', 'build']);
const NPM_TEST = exactRule(['npm', 'test']);
const NPM_TEST_WIDE = widenedRule(['npm', 'test']);
const NPM_TEST_DASHES = widenedRule(['npm', 'test', '--']);
const GIT_COMMIT_WIDE = widenedRule(['git', 'commit']);

describe('ruleMatchesPart: exact rules match only their words, widened ones any further words', () => {
  const cases: { rule: PermissionRule; p: CommandPart; match: boolean }[] = [
    // The case this change is about: a rule from `rm build` never allows more files.
    { rule: RM_BUILD, p: part('rm build'), match: true },
    { rule: RM_BUILD, p: part('rm build src a.txt'), match: false },
    { rule: RM_BUILD, p: part('rm'), match: false },
    { rule: RM_BUILD, p: part('rm -rf build'), match: false },
    { rule: RM_BUILD, p: part('rm buildx'), match: false },
    { rule: RM_BUILD_WIDE, p: part('rm build'), match: true },
    { rule: RM_BUILD_WIDE, p: part('rm build src a.txt'), match: true },
    { rule: RM_BUILD_WIDE, p: part('rm src build'), match: false },
    // npm test: exact vs widened; npm's own options before `--` never ride on a widened rule.
    { rule: NPM_TEST, p: part('npm test'), match: true },
    { rule: NPM_TEST, p: part("npm 'test'", ['npm', 'test']), match: true },
    { rule: NPM_TEST, p: part('npm test -- --watch'), match: false },
    { rule: NPM_TEST, p: part('npm tests'), match: false },
    { rule: NPM_TEST_WIDE, p: part('npm test'), match: true },
    { rule: NPM_TEST_WIDE, p: part('npm test -- --watch'), match: true },
    { rule: NPM_TEST_WIDE, p: part('npm test src/a.test.ts'), match: true },
    { rule: NPM_TEST_WIDE, p: part('npm test --watch'), match: false },
    {
      rule: NPM_TEST_WIDE,
      p: part('npm test --node-options=--import=data:text/javascript,console.log(42)'),
      match: false,
    },
    { rule: NPM_TEST_WIDE, p: part('npm test src -- --script-shell=sh'), match: true },
    { rule: NPM_TEST_DASHES, p: part('npm test -- --watch --ci'), match: true },
    { rule: NPM_TEST_DASHES, p: part('npm test --watch'), match: false },
    // Other programs: a widened rule takes options too (the person read "options included").
    { rule: GIT_COMMIT_WIDE, p: part('git commit -m x'), match: true },
    { rule: GIT_COMMIT_WIDE, p: part('git push'), match: false },
    // Neither kind covers smuggled redirections, substitutions, backgrounding or env prefixes.
    { rule: NPM_TEST, p: part('npm test &', ['npm', 'test']), match: false },
    { rule: NPM_TEST_WIDE, p: part('npm test `id`', ['npm', 'test', '']), match: false },
    { rule: NPM_TEST_WIDE, p: part('npm test > out', ['npm', 'test']), match: false },
    { rule: NPM_TEST, p: part('FOO=1 npm test', ['npm', 'test']), match: false },
    { rule: NPM_TEST, p: part('yarn test'), match: false },
    { rule: { kind: 'tool', tool: 'npm' }, p: part('npm test'), match: false },
  ];
  it.each(cases)('$rule.match $rule.argv vs "$p.text" → $match', ({ rule, p, match }) => {
    expect(ruleMatchesPart(rule, p)).toBe(match);
  });
});

describe('describing rules', () => {
  it.each([
    { rule: RM_BUILD, text: '`rm build` exactly', pattern: 'rm build' },
    {
      rule: GIT_COMMIT_WIDE,
      text: '`git commit *` (`git commit` with any further words)',
      pattern: 'git commit *',
    },
    {
      rule: NPM_TEST_WIDE,
      text: '`npm test *` (`npm test` with any further words for the script; options before `--` still ask)',
      pattern: 'npm test *',
    },
    {
      rule: NPM_TEST_DASHES,
      text: '`npm test -- *` (`npm test --` with any further words)',
      pattern: 'npm test -- *',
    },
    // A literal `*` word is quoted, so the widening star cannot be confused with it.
    { rule: exactRule(['rm', '*']), text: "`rm '*'` exactly", pattern: "rm '*'" },
    { rule: exactRule(['rm', '-rf', '~']), text: "`rm -rf '~'` exactly", pattern: "rm -rf '~'" },
  ])('$text', ({ rule, text, pattern }) => {
    expect(describeRule(rule)).toBe(text);
    if (rule.kind === 'command') expect(rulePattern(rule)).toBe(pattern);
  });

  it('says in words what a rule accepts', () => {
    expect(describeAccepted(RM_BUILD)).toBe(
      'accepts only `rm build`: the same words in the same order, nothing added or left out',
    );
    expect(describeAccepted(GIT_COMMIT_WIDE)).toMatch(
      /^accepts `git commit` alone or followed by any further words, options included/,
    );
    expect(describeAccepted(NPM_TEST_WIDE)).toMatch(
      /followed by words for the script: plain words, and anything after `--`; its own options before `--` still ask/,
    );
    expect(describeRule({ kind: 'tool', tool: 'write_file' })).toBe('tool `write_file`');
  });

  it('an exact and a widened rule with the same words are different rules', () => {
    expect(sameRule(NPM_TEST, NPM_TEST_WIDE)).toBe(false);
    expect(sameRule(NPM_TEST, exactRule(['npm', 'test']))).toBe(true);
    expect(sameRule(NPM_TEST, exactRule(['npm', 'test', '--']))).toBe(false);
  });
});
