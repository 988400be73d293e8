// Splits a search pattern into tokens (RE2 syntax, plus the JavaScript escapes models write out of
// habit) so that one scanner serves three jobs: naming features RE2 lacks, translating JavaScript
// escapes to RE2 ones, and finding the literal text every match must contain (the prefilter).
// It never decides what a pattern matches: RE2 compiles the translated text and is the judge.

export type RegexToken =
  /** One character matched as itself: a plain character or escaped punctuation (`\.`). */
  | { readonly kind: 'literal'; readonly char: string; readonly text: string }
  /** Any other single atom: `\d`, `\pL`, `\x{41}`, a class `[a-z]`, `.`. */
  | { readonly kind: 'atom'; readonly text: string }
  /** Zero-width: `^`, `$`, `\b`, `\B`, `\A`, `\z`. */
  | { readonly kind: 'assertion'; readonly text: string }
  /** `(`, `(?:`, `(?P<name>`, `(?i:`, and also `(?=` and friends (named by the feature check). */
  | { readonly kind: 'open'; readonly text: string }
  | { readonly kind: 'close'; readonly text: ')' }
  /** `(?i)`: flags for the rest of the enclosing group. */
  | { readonly kind: 'flags'; readonly text: string }
  | { readonly kind: 'alternation'; readonly text: '|' }
  /** `*`, `+?`, `{2,5}`; `possessive` when followed by `+` (`a++`), which RE2 lacks. */
  | {
      readonly kind: 'quantifier';
      readonly min: number;
      readonly possessive: boolean;
      readonly text: string;
    }
  /** A backslash sequence RE2 does not accept as written (`\1`, `\k<x>`, `\Z`, `\G`, `\K`). */
  | { readonly kind: 'unsupported-escape'; readonly text: string };

export interface TokenizedPattern {
  readonly tokens: readonly RegexToken[];
  /** Offset of each token in the pattern, for messages. */
  readonly offsets: readonly number[];
}

const HEX = /^[0-9a-fA-F]$/;
const REPEAT = /^\{(\d+)(,(\d*))?\}/;
const UNSUPPORTED_LETTERS = new Set(['Z', 'G', 'K', 'k']);

/** Tokens of `pattern`, or undefined when it is malformed (RE2 then reports the problem). */
export function tokenizeRegex(pattern: string): TokenizedPattern | undefined {
  const tokens: RegexToken[] = [];
  const offsets: number[] = [];
  let i = 0;
  const push = (token: RegexToken, at: number): void => {
    tokens.push(token);
    offsets.push(at);
  };
  while (i < pattern.length) {
    const at = i;
    const char = charAt(pattern, i);
    switch (char) {
      case '\\': {
        if (pattern[i + 1] === 'Q') {
          // \Q...\E quotes everything up to \E (or the end) literally.
          const end = pattern.indexOf('\\E', i + 2);
          const quoted = pattern.slice(i + 2, end === -1 ? undefined : end);
          for (const c of quoted) push({ kind: 'literal', char: c, text: quoteChar(c) }, at);
          i = end === -1 ? pattern.length : end + 2;
          break;
        }
        const escape = readEscape(pattern, i);
        if (!escape) return undefined;
        push(escape.token, at);
        i = escape.end;
        break;
      }
      case '[': {
        const end = classEnd(pattern, i);
        if (end === undefined) return undefined;
        push({ kind: 'atom', text: pattern.slice(i, end) }, at);
        i = end;
        break;
      }
      case '(': {
        const group = readGroupOpen(pattern, i);
        push(group.token, at);
        i = group.end;
        break;
      }
      case ')':
        push({ kind: 'close', text: ')' }, at);
        i += 1;
        break;
      case '|':
        push({ kind: 'alternation', text: '|' }, at);
        i += 1;
        break;
      case '^':
      case '$':
        push({ kind: 'assertion', text: char }, at);
        i += 1;
        break;
      case '.':
        push({ kind: 'atom', text: '.' }, at);
        i += 1;
        break;
      case '*':
      case '+':
      case '?':
      case '{': {
        const quantifier = readQuantifier(pattern, i);
        if (quantifier) {
          push(quantifier.token, at);
          i = quantifier.end;
        } else {
          // `{` that does not start a valid repeat is an ordinary character in RE2.
          push({ kind: 'literal', char, text: char }, at);
          i += 1;
        }
        break;
      }
      default:
        push({ kind: 'literal', char, text: char }, at);
        i += char.length;
    }
  }
  return { tokens, offsets };
}

/** `c` written so RE2 reads it as itself. */
function quoteChar(c: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c;
}

/** The code point at `i` as a string (one or two UTF-16 units). */
function charAt(text: string, i: number): string {
  const code = text.codePointAt(i) ?? 0;
  return String.fromCodePoint(code);
}

function readEscape(pattern: string, i: number): { token: RegexToken; end: number } | undefined {
  const next = pattern[i + 1];
  if (next === undefined) return undefined; // trailing backslash
  if (/[1-9]/.test(next))
    return { token: { kind: 'unsupported-escape', text: `\\${next}` }, end: i + 2 };
  if (next === 'k' && pattern[i + 2] === '<') {
    const close = pattern.indexOf('>', i + 3);
    const end = close === -1 ? i + 3 : close + 1;
    return { token: { kind: 'unsupported-escape', text: pattern.slice(i, end) }, end };
  }
  if (UNSUPPORTED_LETTERS.has(next)) {
    return { token: { kind: 'unsupported-escape', text: `\\${next}` }, end: i + 2 };
  }
  if (next === 'b' || next === 'B' || next === 'A' || next === 'z') {
    return { token: { kind: 'assertion', text: `\\${next}` }, end: i + 2 };
  }
  if (next === 'x' || next === 'u' || next === 'p' || next === 'P') {
    if (pattern[i + 2] === '{') {
      const close = pattern.indexOf('}', i + 3);
      if (close === -1) return undefined;
      return { token: { kind: 'atom', text: pattern.slice(i, close + 1) }, end: close + 1 };
    }
    const width = next === 'x' ? 2 : next === 'u' ? 4 : 1;
    const body = pattern.slice(i + 2, i + 2 + width);
    if (body.length < width) return undefined;
    if ((next === 'x' || next === 'u') && ![...body].every((c) => HEX.test(c))) return undefined;
    return { token: { kind: 'atom', text: pattern.slice(i, i + 2 + width) }, end: i + 2 + width };
  }
  if (next === 'c') {
    const letter = pattern[i + 2];
    if (letter === undefined || !/[a-zA-Z]/.test(letter)) return undefined;
    return { token: { kind: 'atom', text: pattern.slice(i, i + 3) }, end: i + 3 };
  }
  if (next === '0') {
    let end = i + 2;
    while (end < i + 4 && /[0-7]/.test(pattern[end] ?? '')) end += 1;
    return { token: { kind: 'atom', text: pattern.slice(i, end) }, end };
  }
  if (/[a-zA-Z]/.test(next)) return { token: { kind: 'atom', text: `\\${next}` }, end: i + 2 };
  // Escaped punctuation (or any other non-letter) stands for itself.
  const char = charAt(pattern, i + 1);
  return { token: { kind: 'literal', char, text: `\\${char}` }, end: i + 1 + char.length };
}

/** Index just past the `]` that closes the class opening at `start`, or undefined. */
function classEnd(pattern: string, start: number): number | undefined {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1; // a leading `]` is a member
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === ']') return i + 1;
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      if (
        (next === 'x' || next === 'u' || next === 'p' || next === 'P') &&
        pattern[i + 2] === '{'
      ) {
        const close = pattern.indexOf('}', i + 3);
        if (close === -1) return undefined;
        i = close + 1;
      } else {
        i += 2;
      }
      continue;
    }
    if (char === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      if (close !== -1) {
        i = close + 2;
        continue;
      }
    }
    i += 1;
  }
  return undefined;
}

function readGroupOpen(pattern: string, i: number): { token: RegexToken; end: number } {
  if (pattern[i + 1] !== '?') return { token: { kind: 'open', text: '(' }, end: i + 1 };
  const flags = /^\(\?[a-zA-Z-]*[:)]/.exec(pattern.slice(i));
  if (flags) {
    const text = flags[0];
    const token: RegexToken = text.endsWith(')') ? { kind: 'flags', text } : { kind: 'open', text };
    return { token, end: i + text.length };
  }
  const named = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(pattern.slice(i));
  if (named) return { token: { kind: 'open', text: named[0] }, end: i + named[0].length };
  // (?=, (?!, (?<=, (?<!, (?>, (?|, (?(, (?R ... : kept whole enough for the feature check.
  const head = /^\(\?(<[=!]|.)?/.exec(pattern.slice(i))?.[0] ?? '(?';
  return { token: { kind: 'open', text: head }, end: i + head.length };
}

function readQuantifier(
  pattern: string,
  i: number,
): { token: RegexToken; end: number } | undefined {
  const char = pattern[i];
  let min: number;
  let end: number;
  if (char === '{') {
    const repeat = REPEAT.exec(pattern.slice(i));
    if (!repeat) return undefined;
    min = Number(repeat[1]);
    end = i + repeat[0].length;
  } else {
    min = char === '+' ? 1 : 0;
    end = i + 1;
  }
  let possessive = false;
  if (pattern[end] === '?') end += 1;
  else if (pattern[end] === '+') {
    possessive = true;
    end += 1;
  }
  return { token: { kind: 'quantifier', min, possessive, text: pattern.slice(i, end) }, end };
}
