// Characters a command line must not hold to run without asking, judged on the raw text before
// any parsing: bash and the parser may read them differently (a CR after a backslash is a line
// continuation to tree-sitter, a plain character to bash), and a person reading the card cannot
// see them (bidi controls reorder what is shown, zero-width characters hide).

/** C0 controls other than tab and newline, DEL, and the C1 controls. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}
/** Bidi controls and invisible format characters (Unicode general category Cf and the separators). */
const INVISIBLE = /[\p{Cf}\u2028\u2029]/u;

function shown(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (ch === '\r') return '\\r';
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why the raw text alone means the command asks, if it does; one reason per kind of character. */
export function commandTextReasons(command: string): string[] {
  const controls = new Set<string>();
  const invisible = new Set<string>();
  for (const ch of command) {
    if (isControl(ch.codePointAt(0) ?? 0)) controls.add(shown(ch));
    else if (INVISIBLE.test(ch)) invisible.add(shown(ch));
  }
  const reasons: string[] = [];
  if (controls.size > 0) {
    reasons.push(`contains control characters (${[...controls].join(' ')})`);
  }
  if (invisible.size > 0) {
    reasons.push(`contains invisible or text-direction characters (${[...invisible].join(' ')})`);
  }
  return reasons;
}
