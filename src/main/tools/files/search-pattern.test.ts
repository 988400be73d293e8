import { describe, expect, it } from 'vitest';
import { compileSearchPattern, type CompiledPattern } from './search-pattern';

function compile(pattern: string, caseSensitive = true, literal = false): CompiledPattern {
  const result = compileSearchPattern(pattern, { literal, caseSensitive });
  if (!result.ok) throw new Error(result.message);
  return result.pattern;
}

function failure(pattern: string): string {
  const result = compileSearchPattern(pattern, { literal: false, caseSensitive: true });
  if (result.ok) throw new Error(`${pattern} compiled`);
  return result.message;
}

describe('features RE2 does not have', () => {
  it.each([
    ['foo(?=bar)', 'a lookahead', '"(?=" at character 4'],
    ['foo(?!bar)', 'a negative lookahead', '"(?!"'],
    ['(?<=foo)bar', 'a lookbehind', '"(?<="'],
    ['(?<!foo)bar', 'a negative lookbehind', '"(?<!"'],
    ['(a)\\1', 'a backreference', '"\\1"'],
    ['(?<x>a)\\k<x>', 'a named backreference', '"\\k<x>"'],
    ['(?>a+)b', 'an atomic group', '"(?>"'],
    ['a++b', 'a possessive quantifier', '"++"'],
    ['end\\Z', 'the \\Z anchor', '"\\Z"'],
    ['\\Gfoo', 'the \\G anchor', '"\\G"'],
    ['(?x) a b', 'the x (free-spacing) flag', '"(?x)"'],
  ])('%s names %s', (pattern, feature, quoted) => {
    const message = failure(pattern);
    expect(message).toContain(`uses ${feature}`);
    expect(message).toContain(quoted);
    expect(message).toMatch(/RE2, which always runs in linear time/);
  });

  it('does not mistake escaped or bracketed look-alikes for features', () => {
    expect(() => compile('\\(\\?=x\\)')).not.toThrow();
    expect(() => compile('[(?=]')).not.toThrow();
    expect(() => compile('\\\\1')).not.toThrow(); // an escaped backslash, then "1"
  });

  it('reports a malformed pattern in RE2 words, with the literal hint', () => {
    expect(failure('(')).toMatch(
      /^Invalid regular expression: missing closing \): `\(`\. The syntax is RE2.*literal=true/,
    );
    expect(failure('a{2,1}')).toMatch(/invalid repeat count/);
  });

  it('refuses a literal with a line break: search is line by line', () => {
    const result = compileSearchPattern('a\nb', { literal: true, caseSensitive: true });
    expect(result).toEqual({
      ok: false,
      message: 'Search matches one line at a time; the pattern contains a line break.',
    });
  });
});

describe('JavaScript habits', () => {
  it.each([
    ['\\u0041BC', 'ABC', true],
    ['\\u{1F600}', 'smile 😀', true],
    ['[\\u0041-\\u0043]x', 'Bx', true],
    ['\\cJ', 'no newline here', false],
    ['(?<name>ab)c', 'abc', true],
    ['\\Afoo', 'foo bar', true],
    ['\\Afoo', 'bar foo', false],
    ['bar\\z', 'foo bar', true],
    ['foo\\-bar', 'foo-bar', true],
    ['\\\\u0041', '\\u0041', true], // an escaped backslash before "u0041" stays literal
  ])('%s on %j: %s', (pattern, line, matches) => {
    expect(compile(pattern).regex.test(line)).toBe(matches);
  });

  it('a literal pattern matches itself, metacharacters included', () => {
    const { regex } = compile('a.b(c)*', true, true);
    expect(regex.test('x a.b(c)* y')).toBe(true);
    expect(regex.test('aXb(c)')).toBe(false);
  });
});

describe('linear time', () => {
  it('runs the pattern that backtracks exponentially in V8 over long lines', () => {
    const { regex } = compile('(a|aa)+$');
    const line = `${'a'.repeat(100_000)}b`;
    expect(regex.test(line)).toBe(false);
    expect(regex.test('a'.repeat(100_000))).toBe(true);
  });
});

describe('prefilter (required text)', () => {
  it.each([
    ['handleRequest', [['handleRequest']]],
    ['function \\w+Token\\(', [['function ', 'Token(']]],
    ['foo|barbaz', [['foo'], ['barbaz']]],
    ['ab?c', [['a', 'c']]],
    ['abc+d', [['abc', 'd']]],
    ['x{2}yz', [['yz', 'x']]],
    ['(foo)?bar', [['bar']]],
    ['a{,3}', [['a{,3}']]], // not a repeat in RE2: literal text
    ['\\Qa.b\\E', [['a.b']]],
    ['a\\.b', [['a.b']]],
  ])('%s needs %j', (pattern, branches) => {
    expect(compile(pattern).prefilter.branches).toEqual(branches);
  });

  it.each(['.*', '\\w+', '(foo|bar)', 'foo|\\d+', 'a?', '[abc]', 'x*'])(
    '%s has no required text',
    (pattern) => {
      expect(compile(pattern).prefilter.branches).toEqual([]);
    },
  );

  it('is case-insensitive when any part of the pattern is', () => {
    expect(compile('Foo', false).prefilter.caseInsensitive).toBe(true);
    expect(compile('(?i)Foo').prefilter.caseInsensitive).toBe(true);
    expect(compile('a(?i:b)c').prefilter.caseInsensitive).toBe(true);
    expect(compile('Foo').prefilter.caseInsensitive).toBe(false);
  });

  // The prefilter may only ever let through too much: a line RE2 matches must hold the runs.
  const patterns = [
    'ab?c',
    'a+b',
    'x{2,}y',
    'foo|bar',
    'f(o|a)o',
    '^abc$',
    'a\\b c',
    'a[b]c',
    'ab*',
    'ab{0}c',
    '(?i)abc',
    'a.c',
    'a\\sb',
    '\\d{3}x',
    'é+ß',
    '😀a',
    'a(?:bc)+d',
    '(?U)a+?b',
    '\\x41B',
    'a{1}b',
  ];
  const lines = [
    '',
    'abc',
    'ac',
    'aabc',
    'xxy',
    'xxxy',
    'foo',
    'bar',
    'fao',
    'a c',
    'ABC',
    'axc',
    'a b',
    '123x',
    'ééß',
    '😀a',
    'abcbcd',
    'aab',
    'AB',
    'ab',
    'a',
    'b',
    'abbbb',
    'xy',
    'FoO',
    'a\tb',
  ];
  it.each(patterns)('never rules out a line that %s matches', (pattern) => {
    for (const caseSensitive of [true, false]) {
      const { regex, prefilter } = compile(pattern, caseSensitive);
      const fold = (text: string): string =>
        prefilter.caseInsensitive ? text.toLowerCase() : text;
      for (const line of lines) {
        if (!regex.test(line) || prefilter.branches.length === 0) continue;
        const held = prefilter.branches.some((runs) =>
          runs.every((run) => fold(line).includes(fold(run))),
        );
        expect(held, `${pattern} on ${JSON.stringify(line)}`).toBe(true);
      }
    }
  });
});
