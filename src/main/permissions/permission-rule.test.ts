import { describe, expect, it } from 'vitest';
import type { CommandPart } from '../../shared/tool-types';
import { describeRule, prefixFor, ruleMatchesPart, type PermissionRule } from './permission-rule';

describe('prefixFor', () => {
  it.each([
    { argv: ['npm', 'test'], prefix: ['npm', 'test'] },
    { argv: ['npm', 'test', '--', '--watch'], prefix: ['npm', 'test'] },
    { argv: ['git', 'commit', '-m', 'x'], prefix: ['git', 'commit'] },
    { argv: ['npm', 'run', 'build'], prefix: ['npm', 'run', 'build'] },
    { argv: ['npm', 'run', '--silent'], prefix: ['npm', 'run', '--silent'] },
    { argv: ['make'], prefix: ['make'] },
    { argv: ['rm', '-rf', 'build'], prefix: ['rm', '-rf', 'build'] },
    { argv: ['python', 'x.py'], prefix: ['python', 'x.py'] },
    // Programs that run code or other commands: never a two-word prefix.
    { argv: ['npx', 'tsx', 'a.ts'], prefix: ['npx', 'tsx', 'a.ts'] },
    { argv: ['xargs', 'sh', '-c', 'echo hi'], prefix: ['xargs', 'sh', '-c', 'echo hi'] },
    { argv: ['node', 'scripts', 'x'], prefix: ['node', 'scripts', 'x'] },
    { argv: ['pnpm', 'dlx', 'cowsay', 'hi'], prefix: ['pnpm', 'dlx', 'cowsay', 'hi'] },
    { argv: ['env', 'FOO', 'make'], prefix: ['env', 'FOO', 'make'] },
    { argv: ['timeout', 'tests', 'x'], prefix: ['timeout', 'tests', 'x'] },
    { argv: [], prefix: [] },
  ])('$argv → $prefix', ({ argv, prefix }) => {
    expect(prefixFor(argv)).toEqual(prefix);
  });
});

const part = (text: string, argv: string[]): CommandPart => ({
  text,
  argv,
  safe: false,
  reasons: ['x'],
});
const NPM_TEST: PermissionRule = { kind: 'command', prefix: ['npm', 'test'] };

describe('ruleMatchesPart', () => {
  it.each([
    { p: part('npm test', ['npm', 'test']), match: true },
    { p: part('npm test --ci', ['npm', 'test', '--ci']), match: true },
    { p: part('npm tests', ['npm', 'tests']), match: false },
    { p: part('npm', ['npm']), match: false },
    { p: part('npm test &', ['npm', 'test']), match: false },
    { p: part('npm test `id`', ['npm', 'test', '']), match: false },
    { p: part('FOO=1 npm test', ['npm', 'test']), match: false },
    { p: part('yarn test', ['yarn', 'test']), match: false },
  ])('$p.text → $match', ({ p, match }) => {
    expect(ruleMatchesPart(NPM_TEST, p)).toBe(match);
  });

  it('a tool rule never matches a command part', () => {
    expect(ruleMatchesPart({ kind: 'tool', tool: 'npm' }, part('npm test', ['npm', 'test']))).toBe(
      false,
    );
  });

  it('describes rules for the person, quoting odd words', () => {
    expect(describeRule(NPM_TEST)).toBe('`npm test`');
    expect(describeRule({ kind: 'command', prefix: ['rm', '-rf', '~'] })).toBe("`rm -rf '~'`");
    expect(describeRule({ kind: 'tool', tool: 'write_file' })).toBe('tool `write_file`');
  });
});
