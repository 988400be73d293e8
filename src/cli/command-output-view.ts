// A running command's output, live on the terminal: dimmed, each line behind a bar, bounded to
// the first lines and, once the command ends, the last few. The command is a program the model
// chose, so none of its bytes reach the terminal as control: escape sequences are removed (they
// colour text or move the cursor; what a person needs is the text). The moves a progress display
// makes within its line are followed, so a spinner or a progress bar that redraws itself is not
// printed a hundred times: a carriage return or "column 1" starts the line over, "erase line"
// empties it, backspace and "cursor back" take back characters. Any other control character is
// shown as a visible escape by the terminal sanitiser. The model always gets the whole output;
// --json has every chunk.
import stripAnsi from 'strip-ansi';
import type { CliStyle } from './cli-style';
import { displayWidth } from './display-width';

export interface CommandOutputViewOptions {
  readonly write: (text: string) => void;
  readonly style: CliStyle;
  readonly columns: () => number;
  /** Lines shown as they come (default 40). */
  readonly headLines?: number;
  /** Lines shown from the end once the command ends, after the ones left out (default 10). */
  readonly tailLines?: number;
}

export interface CommandOutputView {
  chunk(callId: string, text: string): void;
  /** The call ended: its last partial line and its tail are printed. */
  end(callId: string): void;
}

interface CallOutput {
  line: string;
  carriageReturn: boolean;
  /** The start of an escape sequence cut off at the end of the last chunk. */
  carry: string;
  shown: number;
  hidden: number;
  readonly tail: string[];
}

/** A line longer than this is cut while it is being assembled (a progress bar without \n). */
const MAX_LINE = 4000;
/** An unfinished escape sequence longer than this is not waited for. */
const MAX_CARRY = 256;
const BAR = '  │ ';
// eslint-disable-next-line no-control-regex -- parsing escape sequences is the point
const CSI = /\u001b\[([0-9;?]*)[ -/]*([@-~])/g;

/** The few in-line cursor moves progress displays use; the rest only colour or move elsewhere. */
function cursor(call: CallOutput, params: string, final: string): void {
  const n = Number(params.split(';')[0] || '1');
  switch (final) {
    case 'G': // to a column: column 1 starts the line over, like CR
      if (n <= 1) call.carriageReturn = true;
      return;
    case 'K': // erase in line: all of it, or the part before the cursor
      if (params === '2' || params === '1' || call.carriageReturn) call.line = '';
      return;
    case 'D': // back n columns
      call.line = Array.from(call.line).slice(0, -Math.max(1, n)).join('');
      return;
    default:
      return;
  }
}

export function createCommandOutputView(options: CommandOutputViewOptions): CommandOutputView {
  const headLines = options.headLines ?? 40;
  const tailLines = options.tailLines ?? 10;
  const { paint, text } = options.style;
  const calls = new Map<string, CallOutput>();

  const show = (line: string): void => {
    const room = Math.max(20, options.columns() - BAR.length);
    options.write(`${paint.dim(BAR + text.lines(fit(line, room)))}\n`);
  };

  const feed = (call: CallOutput, text: string): void => {
    for (const char of text) {
      if (call.carriageReturn) {
        call.carriageReturn = false;
        if (char !== '\n') call.line = '';
      }
      if (char === '\n') complete(call);
      else if (char === '\r') call.carriageReturn = true;
      else if (char === '\b') call.line = Array.from(call.line).slice(0, -1).join('');
      else if (call.line.length < MAX_LINE) call.line += char;
    }
  };

  const complete = (call: CallOutput): void => {
    const line = call.line;
    call.line = '';
    if (call.shown < headLines) {
      call.shown++;
      show(line);
      return;
    }
    call.hidden++;
    call.tail.push(line);
    if (call.tail.length > tailLines) call.tail.shift();
  };

  return {
    chunk(callId, raw) {
      let call = calls.get(callId);
      if (!call) {
        call = { line: '', carriageReturn: false, carry: '', shown: 0, hidden: 0, tail: [] };
        calls.set(callId, call);
      }
      let input = call.carry + raw;
      call.carry = '';
      const lastEscape = input.lastIndexOf('\u001b');
      if (lastEscape >= 0 && input.length - lastEscape < MAX_CARRY) {
        const rest = input.slice(lastEscape);
        if (stripAnsi(rest).startsWith('\u001b')) {
          call.carry = rest;
          input = input.slice(0, lastEscape);
        }
      }
      // Cursor moves within the line are followed (a spinner is drawn, then erased with
      // "column 1, erase line"); every other sequence is removed.
      let from = 0;
      for (const match of input.matchAll(CSI)) {
        feed(call, stripAnsi(input.slice(from, match.index)));
        cursor(call, match[1] ?? '', match[2] ?? '');
        from = match.index + match[0].length;
      }
      feed(call, stripAnsi(input.slice(from)));
    },
    end(callId) {
      const call = calls.get(callId);
      if (!call) return;
      calls.delete(callId);
      if (call.line !== '' && !call.carriageReturn) complete(call);
      const left = call.hidden - call.tail.length;
      if (left > 0) {
        options.write(
          `${paint.dim(`${BAR}… ${left} more line${left === 1 ? '' : 's'} (the model has them all)`)}\n`,
        );
      }
      for (const line of call.tail) show(line);
    },
  };
}

/** At most `room` columns, cut between code points, with an ellipsis when cut. */
function fit(line: string, room: number): string {
  if (displayWidth(line) <= room) return line;
  let out = '';
  let width = 0;
  for (const char of line) {
    const w = displayWidth(char);
    if (width + w > room - 1) break;
    out += char;
    width += w;
  }
  return `${out}…`;
}
