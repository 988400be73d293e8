// Characters a command line must not hold to run without asking, judged on the raw text before
// any parsing: bash and the parser may read them differently (a CR after a backslash is a line
// continuation to tree-sitter, a plain character to bash), and a person reading the card cannot
// see them (bidi controls reorder what is shown, zero-width characters hide). The set is exactly
// what the card shows as an escape (src/shared/visible-text.ts), apart from newline and tab,
// which separate commands and words in the open.
import { visiblePieces } from '../../shared/visible-text';

/** Why the raw text alone means the command asks, if it does. */
export function commandTextReasons(command: string): string[] {
  const hidden = new Set<string>();
  for (const piece of visiblePieces(command, { layout: 'inline' })) {
    if (piece.kind === 'escape' && piece.codePoint !== 0x0a && piece.codePoint !== 0x09) {
      hidden.add(piece.text);
    }
  }
  return hidden.size > 0
    ? [`contains control, invisible or text-direction characters (${[...hidden].join(' ')})`]
    : [];
}
