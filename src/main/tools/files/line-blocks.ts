// Reads an open file as blocks of whole lines, UTF-8, through one reused buffer, so a file of any
// size is handled in bounded memory. UTF-16 files (by their byte-order mark) are transcoded to
// UTF-8 on the way; everything else is passed as its bytes. A line longer than the buffer comes
// out in pieces (`piece: true`), each marked, so callers can say so instead of dropping it.
import { readSync } from 'node:fs';

export const BLOCK_BYTES = 4 * 1024 * 1024;

export interface LineBlock {
  /** Whole lines (each ending in `\n`, except maybe the file's last), or a piece of a long line. */
  readonly bytes: Buffer;
  /** 1-based number of the first line in the block. */
  readonly firstLine: number;
  /** Part of a line longer than the buffer; the next block continues the same line. */
  readonly piece: boolean;
  /** The file's encoding; the bytes are UTF-8 either way (UTF-16 is transcoded). */
  readonly encoding: FileEncoding;
}

export type FileEncoding = 'utf8' | 'utf16le' | 'utf16be';

/** The encoding a file's first bytes declare (a UTF-16 byte-order mark), UTF-8 otherwise. */
export function encodingOf(head: Uint8Array): FileEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  return 'utf8';
}

/** Fills `into[offset..offset+length)` with more of the file as UTF-8; 0 at the end. */
type Source = (into: Buffer, offset: number, length: number) => number;

/**
 * Yields the file's lines in blocks. `buffer` (at least a few KB) is reused: a block is valid only
 * until the generator resumes. `size` is the size fstat gave; reading stops there (no extra read).
 */
export function* readLineBlocks(fd: number, size: number, buffer: Buffer): Generator<LineBlock> {
  let source: Source = rawSource(fd, size);
  let filled = source(buffer, 0, buffer.length);
  let ended = filled === 0;
  const encoding = encodingOf(buffer.subarray(0, Math.min(filled, 2)));
  if (encoding !== 'utf8') {
    // The bytes read so far are UTF-16: they go through the transcoder first.
    source = transcodingSource(fd, size, encoding, Buffer.from(buffer.subarray(2, filled)), filled);
    filled = 0;
  }
  let line = 1;
  while (!ended || filled > 0) {
    if (!ended && filled < buffer.length) {
      const count = source(buffer, filled, buffer.length - filled);
      if (count === 0) ended = true;
      filled += count;
      if (!ended && filled < buffer.length) continue; // Fill the buffer before cutting lines.
    }
    if (filled === 0) break;
    const lastBreak = buffer.lastIndexOf(10, filled - 1);
    let cut: number;
    let piece = false;
    if (lastBreak !== -1) cut = lastBreak + 1;
    else if (ended) cut = filled;
    else {
      cut = filled; // A full buffer without a line break: a piece of a long line.
      piece = true;
    }
    const bytes = buffer.subarray(0, cut);
    yield { bytes, firstLine: line, piece, encoding };
    // Only a block that another follows needs its lines counted (most files are one block).
    if (!piece && (!ended || cut < filled)) line += countLineBreaks(bytes);
    buffer.copyWithin(0, cut, filled);
    filled -= cut;
  }
}

/** Number of `\n` bytes in `bytes`. */
export function countLineBreaks(bytes: Uint8Array): number {
  let count = 0;
  let at = bytes.indexOf(10);
  while (at !== -1) {
    count += 1;
    at = bytes.indexOf(10, at + 1);
  }
  return count;
}

function rawSource(fd: number, size: number): Source {
  let position = 0;
  return (into, offset, length) => {
    if (position >= size || length === 0) return 0;
    const count = readSync(fd, into, offset, Math.min(length, size - position), position);
    position += count;
    return count;
  };
}

function transcodingSource(
  fd: number,
  size: number,
  encoding: 'utf16le' | 'utf16be',
  first: Buffer,
  start: number,
): Source {
  const decoder = new TextDecoder(encoding === 'utf16le' ? 'utf-16le' : 'utf-16be');
  const raw = Buffer.allocUnsafe(256 * 1024);
  let position = start;
  let pending = Buffer.from(decoder.decode(first, { stream: true }), 'utf8');
  let done = false;
  return (into, offset, length) => {
    while (pending.length === 0 && !done) {
      const count = position < size ? readSync(fd, raw, 0, raw.length, position) : 0;
      position += count;
      if (count === 0) {
        done = true;
        pending = Buffer.from(decoder.decode(), 'utf8');
      } else {
        pending = Buffer.from(decoder.decode(raw.subarray(0, count), { stream: true }), 'utf8');
      }
    }
    const count = Math.min(length, pending.length);
    pending.copy(into, offset, 0, count);
    pending = pending.subarray(count);
    return count;
  };
}
