// Text from the model, a file or a tool, made safe to show: every character that a terminal would
// act on, or that a screen would not draw (escape sequences, CR, C1 controls, bidi overrides,
// zero-width and other invisible characters), becomes a visible escape such as `\x1b`, `\r` or
// `⟨U+202E⟩`. Nothing is dropped silently, except colour (SGR) sequences in program output when
// asked: removing a colour can reveal text but never hide it. The CLI and the window both show
// text through this one function; each front end marks the escapes so that a real ESC and the
// four typed characters `\x1b` look different (the window with a styled span, the CLI with
// reverse video on a terminal).

/**
 * 'inline': one line, the form for a command, path, argument, name or reason shown for approval:
 * newline and tab are escaped too (a newline in a command starts another command), and so are
 * spaces other than U+0020 and variation selectors (they make one word look like two, or hide
 * data). 'lines': text read as lines (answers, file content, diff lines, program output):
 * newline and tab stay, CRLF counts as a newline, and joiners inside words and emoji stay.
 */
export type VisibleLayout = 'inline' | 'lines';

export interface VisibleTextOptions {
  readonly layout: VisibleLayout;
  /** Program output: SGR colour sequences (`ESC [ … m`) are removed instead of shown. */
  readonly dropColours?: boolean;
}

/** A run of ordinary text, or one character shown as an escape. */
export type VisiblePiece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'escape'; readonly text: string; readonly codePoint: number };

// Candidates only; `escapeFor` decides with the layout and the neighbours. Cc: C0, DEL and C1;
// Cf: bidi marks, embeddings, overrides and isolates, zero-width space and joiners, BOM, tag
// characters; Cs: lone surrogates; Zl/Zp: U+2028/U+2029; then spaces other than U+0020, variation
// selectors, and letters and marks that draw nothing (CGJ, Hangul fillers, Khmer inherent vowels,
// Mongolian variation selectors, braille blank).
const CANDIDATE =
  // eslint-disable-next-line no-misleading-character-class -- lone variation selectors are the point
  /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0]/gu;

// eslint-disable-next-line no-control-regex -- matching the escape character is the point
const SGR = /\u001b\[[0-9;:]*m/y;

const NAMED: Readonly<Record<number, string>> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r' };

// Kept in 'lines' layout only: ordinary in prose and emoji, misleading in a command.
const LINES_ONLY =
  // eslint-disable-next-line no-misleading-character-class -- lone variation selectors are the point
  /^[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufe00-\ufe0f\u{e0100}-\u{e01ef}]$/u;
const JOINERS = new Set([0x200c, 0x200d]);
const WORD_PART = /^[\p{L}\p{M}\p{Extended_Pictographic}]$/u;

/** `text` with every hidden or active character shown as an escape. */
export function visibleText(text: string, options: VisibleTextOptions): string {
  let out = '';
  for (const piece of visiblePieces(text, options)) out += piece.text;
  return out;
}

/** True when `visibleText` would change `text` (some character would be shown as an escape). */
export function hasHiddenCharacters(text: string, layout: VisibleLayout): boolean {
  return visiblePieces(text, { layout }).some((piece) => piece.kind === 'escape');
}

/** The same as `visibleText`, in pieces, so a front end can mark the escapes. */
export function visiblePieces(text: string, options: VisibleTextOptions): VisiblePiece[] {
  const pieces: VisiblePiece[] = [];
  let plain = '';
  let from = 0;
  const flush = (): void => {
    if (plain !== '') pieces.push({ kind: 'text', text: plain });
    plain = '';
  };
  for (const match of text.matchAll(CANDIDATE)) {
    const at = match.index;
    if (at < from) continue; // inside a colour sequence already removed
    const char = match[0];
    const codePoint = char.codePointAt(0) ?? 0;
    plain += text.slice(from, at);
    from = at + char.length;
    if (codePoint === 0x1b && options.dropColours) {
      SGR.lastIndex = at;
      if (SGR.test(text)) {
        from = SGR.lastIndex;
        continue;
      }
    }
    const shown = escapeFor(codePoint, char, text, at, options.layout);
    if (shown === null) {
      plain += char;
    } else if (shown === '') {
      continue;
    } else {
      flush();
      pieces.push({ kind: 'escape', text: shown, codePoint });
    }
  }
  plain += text.slice(from);
  flush();
  return pieces;
}

/** null: keep the character; '': drop it (the CR of a CRLF line ending); else its escape. */
function escapeFor(
  codePoint: number,
  char: string,
  text: string,
  at: number,
  layout: VisibleLayout,
): string | null {
  if (layout === 'lines') {
    if (codePoint === 0x0a || codePoint === 0x09) return null;
    if (codePoint === 0x0d && text[at + 1] === '\n') return '';
    if (LINES_ONLY.test(char)) return null;
    if (JOINERS.has(codePoint) && joinsWordParts(text, at)) return null;
  }
  const named = NAMED[codePoint];
  if (named !== undefined) return named;
  if (codePoint < 0x20 || codePoint === 0x7f)
    return `\\x${codePoint.toString(16).padStart(2, '0')}`;
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** A joiner between two letters, marks or pictographs outside ASCII (emoji, Indic, Persian). */
function joinsWordParts(text: string, at: number): boolean {
  const before = lastCodePoint(text.slice(Math.max(0, at - 2), at));
  const after = String.fromCodePoint(text.codePointAt(at + 1) ?? 0x20);
  return (
    before !== undefined &&
    before.charCodeAt(0) > 0x7f &&
    after.charCodeAt(0) > 0x7f &&
    WORD_PART.test(before) &&
    WORD_PART.test(after)
  );
}

function lastCodePoint(text: string): string | undefined {
  const points = Array.from(text);
  return points[points.length - 1];
}
