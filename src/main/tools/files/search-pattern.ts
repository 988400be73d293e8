// Turns the model's pattern into an RE2 regex (re2js: linear time in the text searched, so no
// pattern can freeze a search) and says plainly when a pattern uses something RE2 lacks.
// Search is line by line, so `\A` and `\z` mean the same as `^` and `$` here.
import { RE2JS } from 're2js';
import { requiredLiterals, type Prefilter } from './required-literals';
import { tokenizeRegex, type RegexToken } from './regex-tokens';

export interface PatternOptions {
  readonly literal: boolean;
  readonly caseSensitive: boolean;
}

export interface CompiledPattern {
  /** Matches within one line; `^`/`$` also match at line breaks (for whole-block tests). */
  readonly regex: RE2JS;
  /** Text one of which every match contains; lets whole files be skipped without decoding. */
  readonly prefilter: Prefilter;
}

export type PatternResult =
  | { readonly ok: true; readonly pattern: CompiledPattern }
  | { readonly ok: false; readonly message: string };

const MAX_PATTERN_LENGTH = 2000;

/** Compiles `pattern`, or explains in one message why it cannot be used. */
export function compileSearchPattern(pattern: string, options: PatternOptions): PatternResult {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return fail(`The pattern is ${pattern.length} characters long (limit ${MAX_PATTERN_LENGTH}).`);
  }
  if (/[\n\r]/.test(pattern) && options.literal) {
    return fail('Search matches one line at a time; the pattern contains a line break.');
  }
  const flags = RE2JS.MULTILINE | (options.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  if (options.literal) {
    const regex = RE2JS.compile(RE2JS.quote(pattern), flags);
    return {
      ok: true,
      pattern: {
        regex,
        prefilter: { branches: [[pattern]], caseInsensitive: !options.caseSensitive },
      },
    };
  }
  const tokenized = tokenizeRegex(pattern);
  if (tokenized) {
    const index = tokenized.tokens.findIndex((token) => unsupportedFeature(token) !== undefined);
    const token = tokenized.tokens[index];
    if (token) {
      return fail(
        `The pattern uses ${unsupportedFeature(token)} ("${token.text}" at character ` +
          `${(tokenized.offsets[index] ?? 0) + 1}), which the search engine (RE2, which always runs ` +
          'in linear time) does not support. Rewrite the pattern without it, or use literal=true for plain text.',
      );
    }
  }
  const source = tokenized ? tokenized.tokens.map(toRe2).join('') : pattern;
  let regex: RE2JS;
  try {
    RE2JS.compile(source); // Without flags first, so an error quotes only the model's own text.
    regex = RE2JS.compile(source, flags);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return fail(
      `Invalid regular expression: ${reason}. The syntax is RE2 (like JavaScript's, without lookaround ` +
        'or backreferences). Use literal=true for plain text.',
    );
  }
  const prefilter = tokenized
    ? requiredLiterals(tokenized.tokens, !options.caseSensitive)
    : { branches: [], caseInsensitive: false };
  return { ok: true, pattern: { regex, prefilter } };
}

/** The feature, named for the model, when RE2 cannot run `token`; undefined when it can. */
function unsupportedFeature(token: RegexToken): string | undefined {
  switch (token.kind) {
    case 'unsupported-escape':
      if (/^\\[1-9]$/.test(token.text)) return 'a backreference';
      if (token.text.startsWith('\\k')) return 'a named backreference';
      if (token.text === '\\Z') return 'the \\Z anchor (use $: each line is matched on its own)';
      if (token.text === '\\G') return 'the \\G anchor';
      if (token.text === '\\K') return 'the \\K match reset';
      return 'an escape RE2 does not know';
    case 'open':
      return groupFeature(token.text);
    case 'flags':
      return /x/.test(token.text.split('-')[0] ?? '') ? 'the x (free-spacing) flag' : undefined;
    case 'quantifier':
      return token.possessive ? 'a possessive quantifier' : undefined;
    case 'literal':
    case 'atom':
    case 'assertion':
    case 'close':
    case 'alternation':
      return undefined;
  }
}

function groupFeature(text: string): string | undefined {
  if (text === '(?=') return 'a lookahead';
  if (text === '(?!') return 'a negative lookahead';
  if (text === '(?<=') return 'a lookbehind';
  if (text === '(?<!') return 'a negative lookbehind';
  if (text === '(?>') return 'an atomic group';
  if (text === '(?|') return 'a branch-reset group';
  if (text === '(?(') return 'a conditional';
  if (/^\(\?[R0-9+&]/.test(text)) return 'recursion';
  if (/^\(\?[a-zA-Z-]*:$/.test(text) && /x/.test(text.split('-')[0] ?? '')) {
    return 'the x (free-spacing) flag';
  }
  return undefined;
}

/** The token in RE2 syntax: JavaScript's `\uXXXX`, `\u{X}` and `\cX` become `\x{…}`. */
function toRe2(token: RegexToken): string {
  if (token.kind === 'assertion') {
    if (token.text === '\\A') return '^';
    if (token.text === '\\z') return '$';
    return token.text;
  }
  return token.kind === 'atom' ? translateEscapes(token.text) : token.text;
}

/** Rewrites the JavaScript-only escapes in an atom (a class may hold several), pair by pair. */
function translateEscapes(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '\\') {
      out += text[i];
      i += 1;
      continue;
    }
    const rest = text.slice(i);
    const braced = /^\\u\{([0-9a-fA-F]+)\}/.exec(rest);
    const plain = /^\\u([0-9a-fA-F]{4})/.exec(rest);
    const control = /^\\c([a-zA-Z])/.exec(rest);
    const match = braced ?? plain ?? control;
    if (match) {
      const hex = control
        ? ((match[1] as string).toUpperCase().charCodeAt(0) - 64).toString(16)
        : (match[1] as string);
      out += `\\x{${hex}}`;
      i += match[0].length;
    } else {
      out += text.slice(i, i + 2);
      i += 2;
    }
  }
  return out;
}

function fail(message: string): PatternResult {
  return { ok: false, message };
}
