// A running command's output, live on the terminal: dimmed, each line behind a bar, bounded to
// the first lines and, once the command ends, the last few. The command is a program the model
// chose, so none of its bytes reach the terminal as control: escape sequences are removed (they
// colour text or move the cursor; what a person needs is the text), a carriage return starts the
// line over (a spinner or a progress bar redraws itself and is not printed a hundred times),
// backspace takes back one character, and any other control character is shown as a visible
// escape by the terminal sanitiser. The model always gets the whole output; --json has every chunk.
import stripAnsi from 'strip-ansi';
import type { CliStyle } from './cli-style';
import { displayWidth } from './markdown-terminal';

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

export function createCommandOutputView(options: CommandOutputViewOptions): CommandOutputView {
  const headLines = options.headLines ?? 40;
  const tailLines = options.tailLines ?? 10;
  const { paint, text } = options.style;
  const calls = new Map<string, CallOutput>();

  const show = (line: string): void => {
    const room = Math.max(20, options.columns() - BAR.length);
    options.write(`${paint.dim(BAR + text.lines(fit(line, room)))}\n`);
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
      for (const char of stripAnsi(input)) {
        if (call.carriageReturn) {
          call.carriageReturn = false;
          if (char !== '\n') call.line = '';
        }
        if (char === '\n') complete(call);
        else if (char === '\r') call.carriageReturn = true;
        else if (char === '\b') call.line = Array.from(call.line).slice(0, -1).join('');
        else if (call.line.length < MAX_LINE) call.line += char;
      }
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
