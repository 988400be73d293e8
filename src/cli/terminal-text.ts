// The CLI's one gate to the terminal for text it did not write itself: commands, paths, reasons,
// diff lines, tool output, the model's answers, error messages. Everything a terminal would act on
// (escape sequences, CR, C1 controls) or that it would not draw (bidi controls, zero-width
// characters) is shown as a visible escape by src/shared/visible-text.ts.
//
// Colour: the CLI passes on no SGR sequence from the model or a file, not even in tool output:
// SGR can hide text (`ESC[8m` conceals it, black on black erases it). In output summaries colour
// sequences are removed (that only reveals); everywhere else they are shown like any other
// escape. A running command's live output (command-output-view.ts) has every escape sequence
// removed before it gets here, and the drawn answer (markdown-terminal.ts) passes each piece of
// the model's text through here; the only SGR the CLI writes is its own (cli-style.ts).
//
// On a terminal the escapes are printed in reverse video (our own SGR), so a real ESC and the
// four typed characters `\x1b` look different; NO_COLOR or a pipe gets them plain.
import { safeJsonStringify } from '../shared/safe-json';
import { visiblePieces, type VisibleTextOptions } from '../shared/visible-text';

export interface TerminalText {
  /** One line: a command, path, argument, name, reason or message. Newline and tab escaped. */
  line(text: string): string;
  /** Text read as lines: the model's answer, file content, diff lines. */
  lines(text: string): string;
  /** A one-line summary of program output: colours removed, everything else shown. */
  output(text: string): string;
}

const REVERSE = '\u001b[7m';
const REVERSE_OFF = '\u001b[27m';

export function createTerminalText(highlight: boolean): TerminalText {
  const render = (text: string, options: VisibleTextOptions): string => {
    let out = '';
    for (const piece of visiblePieces(text, options)) {
      out += piece.kind === 'escape' && highlight ? REVERSE + piece.text + REVERSE_OFF : piece.text;
    }
    return out;
  };
  return {
    line: (text) => render(text, { layout: 'inline' }),
    lines: (text) => render(text, { layout: 'lines' }),
    output: (text) => render(text, { layout: 'inline', dropColours: true }),
  };
}

/** Plain escapes: for pipes, files and tests. */
export const PLAIN_TERMINAL_TEXT: TerminalText = createTerminalText(false);

/** Highlighted escapes when `stream` is a terminal and NO_COLOR is not set. */
export function terminalTextFor(
  stream: { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv,
): TerminalText {
  const highlight = stream.isTTY === true && (env.NO_COLOR ?? '') === '';
  return highlight ? createTerminalText(true) : PLAIN_TERMINAL_TEXT;
}

// JSON.stringify escapes C0 controls and lone surrogates but not DEL, C1, bidi or other format
// characters, and a person often reads --json output on a terminal. Writing those as \uXXXX
// keeps the same value.
const JSON_HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** One JSON line whose text a terminal cannot act on, equal in value to JSON.stringify's. */
export function jsonLine(value: unknown): string {
  const json = safeJsonStringify(value).replace(JSON_HIDDEN, (char) =>
    Array.from(
      { length: char.length },
      (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join(''),
  );
  return `${json}\n`;
}
