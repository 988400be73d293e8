// The model's answer as it streams. On a terminal it is drawn as markdown block by block: a block
// is printed once a later block has begun (so it cannot change any more), the rest when the turn
// ends. Piped, the text goes out as it came (sanitised, still markdown), so it can be saved or
// read by another program. The markdown renderer is given by the caller, loaded only for a
// terminal (marked is not needed for piped output).
import type { CliStyle } from './cli-style';
import type { lexMarkdown, renderBlocks } from './markdown-terminal';

/** What drawing markdown takes: markdown-terminal.ts, loaded by whoever draws. */
export interface MarkdownDrawing {
  readonly lexMarkdown: typeof lexMarkdown;
  readonly renderBlocks: typeof renderBlocks;
}

export interface AnswerPrinterOptions {
  readonly write: (text: string) => void;
  readonly style: CliStyle;
  /** Draw markdown with this (stdout is a terminal), or pass the text through (false). */
  readonly render: false | MarkdownDrawing;
  readonly columns: () => number;
}

export interface AnswerPrinter {
  push(delta: string): void;
  /** The turn's text is complete: print what is left, ending on a new line. */
  finish(): void;
}

export function createAnswerPrinter(options: AnswerPrinterOptions): AnswerPrinter {
  return options.render ? renderedPrinter(options, options.render) : plainPrinter(options);
}

function plainPrinter({ write, style }: AnswerPrinterOptions): AnswerPrinter {
  let midLine = false;
  return {
    push(delta) {
      if (delta === '') return;
      write(style.text.lines(delta));
      midLine = !delta.endsWith('\n');
    },
    finish() {
      if (midLine) write('\n');
      midLine = false;
    },
  };
}

function renderedPrinter(
  { write, style, columns }: AnswerPrinterOptions,
  { lexMarkdown, renderBlocks }: MarkdownDrawing,
): AnswerPrinter {
  let pending = '';
  let printedBlocks = 0;
  const print = (source: string, all: boolean): string => {
    const tokens = lexMarkdown(source);
    // Everything up to the last block that is not blank space is final.
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last]?.type === 'space') last--;
    const final = all ? tokens : tokens.slice(0, Math.max(0, last));
    if (final.length === 0) return source;
    const lines = renderBlocks(final, { style, columns: columns() });
    if (lines.length > 0) {
      write(`${printedBlocks > 0 ? '\n' : ''}${lines.join('\n')}\n`);
      printedBlocks++;
    }
    const consumed = final.reduce((n, token) => n + token.raw.length, 0);
    return source.slice(consumed);
  };
  return {
    push(delta) {
      // The lexer reads CR and CRLF as line ends; doing it here keeps block lengths in step.
      pending += delta.replace(/\r\n?/g, '\n');
      // Only a line end can complete a block.
      if (delta.includes('\n')) pending = print(pending, false);
    },
    finish() {
      if (pending.trim() !== '') print(pending, true);
      pending = '';
      printedBlocks = 0;
    },
  };
}
