// read_file's window into a file too big to load: stream through it in blocks (counting line
// breaks, decoding nothing) to the first wanted line, decode only the wanted lines, and stop
// reading right after them. Runs in the scan worker. Memory stays one block whatever the size.
import { closeSync } from 'node:fs';
import { BLOCK_BYTES, countLineBreaks, readLineBlocks, type LineBlock } from './line-blocks';
import { describeOpenFailure, openRegularFileAtSync } from './regular-file-open';
import { sniffBinary } from './text-decoding';

export interface LineWindowJob {
  readonly kind: 'window';
  /** Real path of the project folder. */
  readonly root: string;
  /** Real path of the file (checked by the path guard; opened and verified here). */
  readonly path: string;
  /** First line wanted, 1-based. */
  readonly offset: number;
  readonly limit: number;
  /** Longer lines are cut to this many characters. */
  readonly maxLineChars: number;
  readonly deadline: number;
}

export interface WindowLine {
  readonly number: number;
  readonly text: string;
  /** The line's full length when it was cut: characters, or 'long' for a line over a block. */
  readonly cutFrom?: number | 'long';
}

export type LineWindowReport =
  | { readonly kind: 'window'; readonly status: 'unreadable'; readonly message: string }
  | {
      readonly kind: 'window';
      readonly status: 'binary';
      readonly format: string;
      readonly size: number;
    }
  | { readonly kind: 'window'; readonly status: 'past-end'; readonly totalLines: number }
  | { readonly kind: 'window'; readonly status: 'time-limit'; readonly reachedLine: number }
  | {
      readonly kind: 'window';
      readonly status: 'ok';
      readonly lines: WindowLine[];
      /** Known when the window reached the end of the file. */
      readonly totalLines?: number;
      readonly size: number;
      readonly encoding: LineBlock['encoding'];
      /** Some shown line was not valid UTF-8 (shown with U+FFFD). */
      readonly invalidUtf8: boolean;
    };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function readLineWindow(job: LineWindowJob): LineWindowReport {
  const opened = openRegularFileAtSync(job.root, job.path);
  if (!opened.ok) {
    return { kind: 'window', status: 'unreadable', message: describeOpenFailure(opened) };
  }
  const last = job.offset + job.limit - 1;
  const lines: WindowLine[] = [];
  let invalidUtf8 = false;
  let encoding: LineBlock['encoding'] = 'utf8';
  let lineCount = 0;
  let more = false;
  try {
    const buffer = Buffer.allocUnsafe(BLOCK_BYTES);
    let first = true;
    let continuing = false; // the previous block was a piece of the line that goes on here
    for (const block of readLineBlocks(opened.fd, opened.size, buffer)) {
      encoding = block.encoding;
      if (first && encoding === 'utf8') {
        const format = sniffBinary(block.bytes);
        if (format) return { kind: 'window', status: 'binary', format, size: opened.size };
      }
      first = false;
      if (block.firstLine > last) {
        more = true; // Something follows the window: stop reading here.
        break;
      }
      const endsInBreak = block.bytes[block.bytes.length - 1] === 10;
      const breaks = block.piece ? 0 : countLineBreaks(block.bytes);
      const blockLast = block.firstLine + breaks - (endsInBreak ? 1 : 0);
      lineCount = Math.max(lineCount, blockLast);
      if (blockLast >= job.offset) {
        const sawMore = collect(
          block,
          job,
          continuing,
          lines,
          (invalid) => (invalidUtf8 ||= invalid),
        );
        if (sawMore) {
          more = true;
          break;
        }
      }
      continuing = block.piece;
      if (Date.now() > job.deadline) {
        return { kind: 'window', status: 'time-limit', reachedLine: block.firstLine };
      }
    }
  } finally {
    closeSync(opened.fd);
  }
  if (lines.length === 0) return { kind: 'window', status: 'past-end', totalLines: lineCount };
  return {
    kind: 'window',
    status: 'ok',
    lines,
    ...(more ? {} : { totalLines: lineCount }),
    size: opened.size,
    encoding,
    invalidUtf8,
  };
}

/** Adds the block's lines that fall in the window; true when a line after the window was seen. */
function collect(
  block: LineBlock,
  job: LineWindowJob,
  continuing: boolean,
  lines: WindowLine[],
  noteInvalid: (invalid: boolean) => void,
): boolean {
  const last = job.offset + job.limit - 1;
  const bytes = block.bytes;
  if (block.piece || continuing) {
    // Part of a line longer than a block: show its start once, marked as cut.
    const number = block.firstLine;
    if (number >= job.offset && number <= last) {
      const previous = lines[lines.length - 1];
      if (previous?.number === number) {
        lines[lines.length - 1] = { ...previous, cutFrom: 'long' };
      } else if (block.piece) {
        // Cut at a byte count, so the last character may be split: decoded leniently.
        const text = bytes.toString('utf8', 0, Math.min(bytes.length, job.maxLineChars * 4));
        lines.push({ number, text: text.slice(0, job.maxLineChars), cutFrom: 'long' });
      }
    }
    if (block.piece) return false;
  }
  let start = 0;
  let number = block.firstLine;
  if (continuing) {
    // The first line of this block ends the long line already handled above.
    start = bytes.indexOf(10) + 1;
    number += 1;
    if (start === 0) return false;
  }
  while (start < bytes.length) {
    const end = bytes.indexOf(10, start);
    const lineEnd = end === -1 ? bytes.length : end;
    if (number > last) return true;
    if (number >= job.offset) {
      let raw = bytes.subarray(start, lineEnd);
      if (raw[raw.length - 1] === 13) raw = raw.subarray(0, raw.length - 1);
      const text = decode(raw, noteInvalid);
      lines.push(
        text.length > job.maxLineChars
          ? { number, text: text.slice(0, job.maxLineChars), cutFrom: text.length }
          : { number, text },
      );
    }
    if (end === -1) break;
    start = end + 1;
    number += 1;
  }
  return false;
}

function decode(bytes: Buffer, noteInvalid: (invalid: boolean) => void): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    noteInvalid(true);
    return bytes.toString('utf8');
  }
}
