// Keeps what the model will read of a command's output: the head and the tail within a byte
// budget, so 50 MB of output costs a bounded amount of memory. The raw stream (with colours) is
// not kept here; the caller forwards it to the terminal view as it arrives.
import stripAnsi from 'strip-ansi';

export interface CaptureOptions {
  /** Most bytes of clean text the model gets. */
  readonly budgetBytes?: number;
}

export interface CapturedText {
  readonly text: string;
  /** Raw bytes seen (before cleaning). */
  readonly totalBytes: number;
  /** True when the middle of the output was left out. */
  readonly truncated: boolean;
}

export const DEFAULT_BUDGET_BYTES = 32 * 1024;

/** Resolves carriage-return and backspace overwrites the way a terminal would show the line. */
export function resolveOverwrites(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.includes('\r') && !line.includes('\b')) return line;
      const cells: string[] = [];
      let column = 0;
      for (const ch of line) {
        if (ch === '\r') column = 0;
        else if (ch === '\b') column = Math.max(0, column - 1);
        else cells[column++] = ch;
      }
      return cells.join('');
    })
    .join('\n');
}

/** ANSI stripped, overwrites resolved. */
export function cleanTerminalText(raw: string): string {
  return resolveOverwrites(stripAnsi(raw));
}

function byteSlice(text: string, maxBytes: number, fromEnd: boolean): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= maxBytes) return text;
  const slice = fromEnd ? buffer.subarray(buffer.length - maxBytes) : buffer.subarray(0, maxBytes);
  // Drop a split multi-byte character at the cut.
  return slice.toString('utf8').replace(fromEnd ? /^\uFFFD+/ : /\uFFFD+$/, '');
}

export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head = '';
  private headFull = false;
  private tail: string[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(private readonly options: CaptureOptions = {}) {
    const budget = options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    this.headLimit = Math.floor(budget / 3);
    this.tailLimit = budget - this.headLimit;
  }

  push(chunk: string): void {
    this.total += Buffer.byteLength(chunk, 'utf8');
    if (!this.headFull) {
      // Raw text is longer than clean text, so twice the limit is enough to fill the clean head.
      const room = this.headLimit * 2 - this.head.length;
      if (chunk.length <= room) {
        this.head += chunk;
        return;
      }
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      this.headFull = true;
    }
    this.tail.push(chunk);
    this.tailLength += chunk.length;
    // Keep a little over twice the tail budget of raw text; drop whole chunks from the front.
    while (
      this.tail.length > 1 &&
      this.tailLength - (this.tail[0]?.length ?? 0) >= this.tailLimit * 2
    ) {
      this.tailLength -= this.tail.shift()?.length ?? 0;
    }
  }

  /** Raw characters held right now; stays bounded however much output passes through. */
  get retainedLength(): number {
    return this.head.length + this.tailLength;
  }

  get totalBytes(): number {
    return this.total;
  }

  result(): CapturedText {
    const budget = this.options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    const head = cleanTerminalText(this.head);
    if (this.tail.length === 0 && Buffer.byteLength(head) <= budget) {
      return { text: head, totalBytes: this.total, truncated: false };
    }
    const rawTail = this.tail.join('');
    const tail = cleanTerminalText(rawTail);
    const whole = head + tail;
    const cleanBytes = Buffer.byteLength(whole);
    if (cleanBytes <= budget && this.total === Buffer.byteLength(this.head + rawTail)) {
      return { text: whole, totalBytes: this.total, truncated: false };
    }
    const marker = (omitted: number) => `\n… [${omitted} bytes of output left out] …\n`;
    const keptHead = byteSlice(head, this.headLimit, false);
    // Start the tail at a line boundary so a cut escape sequence or half line does not show.
    let keptTail = byteSlice(tail, this.tailLimit - 64, true);
    const newline = keptTail.indexOf('\n');
    if (newline >= 0 && newline < keptTail.length - 1) keptTail = keptTail.slice(newline + 1);
    const omitted = Math.max(
      0,
      this.total - Buffer.byteLength(keptHead) - Buffer.byteLength(keptTail),
    );
    return { text: keptHead + marker(omitted) + keptTail, totalBytes: this.total, truncated: true };
  }
}
