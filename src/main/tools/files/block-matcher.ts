// Runs a compiled pattern over blocks of whole lines, doing as little as it can, as grep does.
// With required text: a block without it is skipped by a byte search (nothing decoded), and only
// the lines holding it are tested. Without: one regex test of the whole block, and line by line
// only when that matches. Lines are matched without their trailing \r.
import type { LineBlock } from './line-blocks';
import type { CompiledPattern } from './search-pattern';
import { looksBinary } from './text-decoding';

/** Called per matching line; returns false when no more lines of this file are wanted. */
export type OnLine = (line: number, text: string) => boolean;

export type BlockVerdict = 'binary' | 'more' | 'enough';

export class BlockMatcher {
  /** Per alternative, the runs a matching line must all contain (case-sensitive only). */
  private readonly branches: readonly (readonly string[])[] | undefined;
  private readonly bytesNeedles: readonly Buffer[] | undefined;
  /** Case-insensitive required text: plain alternatives, linear enough for V8's own engine. */
  private readonly foldedNeedle: RegExp | undefined;

  constructor(private readonly compiled: CompiledPattern) {
    const { branches, caseInsensitive } = compiled.prefilter;
    const usable = branches.length > 0 && branches.every((runs) => runs.every(isPlainText));
    if (usable && !caseInsensitive) {
      this.branches = branches;
      this.bytesNeedles = branches.map((runs) => Buffer.from(runs[0] as string, 'utf8'));
    } else if (usable) {
      // The u flag makes V8 fold case as RE2 does (Unicode simple case folding).
      const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      this.foldedNeedle = new RegExp(
        branches.map((runs) => escape(runs[0] as string)).join('|'),
        'giu',
      );
    }
  }

  /** Reports the block's matching lines; `first` is the file's first block (binary check). */
  search(block: LineBlock, first: boolean, onLine: OnLine): BlockVerdict {
    const bytes = block.bytes;
    if (this.bytesNeedles && !this.bytesNeedles.some((needle) => bytes.indexOf(needle) !== -1)) {
      return 'more';
    }
    const text = bytes.toString('utf8');
    if (first && block.encoding === 'utf8' && looksBinary(text)) return 'binary';
    const regex = this.compiled.regex;
    if (this.bytesNeedles || this.foldedNeedle) {
      let line = block.firstLine;
      let counted = 0;
      for (const start of this.candidateLines(text)) {
        line += countBreaks(text, counted, start);
        counted = start;
        const end = text.indexOf('\n', start);
        const candidate = stripCr(text.slice(start, end === -1 ? text.length : end));
        if (this.holdsAllRuns(candidate) && regex.test(candidate) && !onLine(line, candidate)) {
          return 'enough';
        }
      }
      return 'more';
    }
    // The whole block is tested without \r too, so `$` matches at the end of CRLF lines.
    const flat = text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
    if (!regex.test(flat)) return 'more';
    const lines = flat.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i += 1) {
      const candidate = lines[i] as string;
      if (regex.test(candidate) && !onLine(block.firstLine + i, candidate)) return 'enough';
    }
    return 'more';
  }

  /** Where the first match starts in `line` (to show the part of a long line around it). */
  matchStart(line: string): number {
    const found = this.compiled.regex.matcher(line);
    return found.find() ? found.start() : 0;
  }

  private holdsAllRuns(line: string): boolean {
    if (!this.branches) return true;
    return this.branches.some((runs) => runs.every((run) => line.includes(run)));
  }

  /** Start offsets of the lines holding required text, in order, each once. */
  private candidateLines(text: string): number[] {
    const starts: number[] = [];
    const add = (at: number): number => {
      starts.push(text.lastIndexOf('\n', at - 1) + 1);
      const end = text.indexOf('\n', at);
      return end === -1 ? text.length : end + 1; // Go on from the next line.
    };
    if (this.branches) {
      for (const runs of this.branches) {
        const needle = runs[0] as string;
        let at = text.indexOf(needle);
        while (at !== -1) at = text.indexOf(needle, add(at));
      }
      if (this.branches.length > 1) return [...new Set(starts)].sort((a, b) => a - b);
    } else if (this.foldedNeedle) {
      const needle = this.foldedNeedle;
      needle.lastIndex = 0;
      let found = needle.exec(text);
      while (found) {
        needle.lastIndex = add(found.index);
        found = needle.exec(text);
      }
    }
    return starts;
  }
}

/** `\n` characters in text[from..to). */
function countBreaks(text: string, from: number, to: number): number {
  let count = 0;
  let at = text.indexOf('\n', from);
  while (at !== -1 && at < to) {
    count += 1;
    at = text.indexOf('\n', at + 1);
  }
  return count;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** Text that survives a UTF-8 round trip and holds no U+FFFD, so bytes and text agree on it. */
function isPlainText(literal: string): boolean {
  return (
    literal.length > 0 &&
    !literal.includes('\uFFFD') &&
    Buffer.from(literal, 'utf8').toString('utf8') === literal
  );
}
