// Colour for the CLI's own words: off for a pipe or a file, with NO_COLOR set (no-color.org),
// with --no-color, or on a dumb terminal. Only Tandem's own SGR sequences are ever written: text
// from the model, a file or a program is made visible by terminal-text.ts first and then wrapped
// in these. Each style has its own "off" code, so styles nest (a dim line keeps a red word red).
import { createTerminalText, PLAIN_TERMINAL_TEXT, type TerminalText } from './terminal-text';

export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  strike(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
}

export interface CliStyle {
  readonly color: boolean;
  /** How text Tandem did not write is shown (escapes highlighted when colour is on). */
  readonly text: TerminalText;
  readonly paint: Paint;
}

const sgr =
  (on: number, off: number) =>
  (text: string): string =>
    text === '' ? '' : `\u001b[${on}m${text}\u001b[${off}m`;

export const COLOR_PAINT: Paint = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  underline: sgr(4, 24),
  strike: sgr(9, 29),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  blue: sgr(34, 39),
  magenta: sgr(35, 39),
  cyan: sgr(36, 39),
};

const same = (text: string): string => text;

export const NO_PAINT: Paint = {
  bold: same,
  dim: same,
  italic: same,
  underline: same,
  strike: same,
  red: same,
  green: same,
  yellow: same,
  blue: same,
  magenta: same,
  cyan: same,
};

export const PLAIN_STYLE: CliStyle = { color: false, text: PLAIN_TERMINAL_TEXT, paint: NO_PAINT };

/** Whether to colour what goes to `stream`. */
export function colorWanted(
  stream: { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  noColorFlag = false,
): boolean {
  return (
    stream.isTTY === true && !noColorFlag && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb'
  );
}

export function styleFor(
  stream: { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  noColorFlag = false,
): CliStyle {
  if (!colorWanted(stream, env, noColorFlag)) return PLAIN_STYLE;
  return { color: true, text: createTerminalText(true), paint: COLOR_PAINT };
}
