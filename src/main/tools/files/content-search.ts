// The content search itself, synchronous because it runs in the scan worker: walk, open each
// file once, read it in blocks of whole lines, and run the pattern only where it can match.
// Fast path, as grep does it: a block without the pattern's required text (a byte search) is
// skipped undecoded; a block whose whole text the regex does not match is skipped unsplit; only
// matching blocks are split into lines. Every limit hit is counted in `bounds`.
import { closeSync } from 'node:fs';
import picomatch from 'picomatch';
import { BLOCK_BYTES, readLineBlocks, type LineBlock } from './line-blocks';
import { openRegularFileSync } from './regular-file-open';
import {
  admitItem,
  newScanBounds,
  recordUnreadableFile,
  type ScanBounds,
  type ScanLimits,
} from './scan-bounds';
import { compileSearchPattern, type CompiledPattern } from './search-pattern';
import { looksBinary, sniffBinary } from './text-decoding';
import { newWalkProblems, walkProject, type WalkEntry } from './walk-project';

export interface ContentSearchJob {
  readonly kind: 'content';
  /** Real path of the project folder. */
  readonly folder: string;
  /** Real path of the folder or file to search, inside `folder`. */
  readonly start: string;
  readonly startRelative: string;
  readonly startIsFile: boolean;
  readonly pattern: string;
  readonly literal: boolean;
  readonly caseSensitive: boolean;
  readonly glob?: string;
  readonly maxResults: number;
  readonly limits: ScanLimits;
}

export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

export interface ContentSearchReport {
  readonly kind: 'content';
  readonly matches: SearchMatch[];
  readonly leftOut: number;
  readonly filesWithLeftOut: number;
  readonly bounds: ScanBounds;
}

const MAX_SHOWN_CHARS = 300;

export function searchContent(job: ContentSearchJob): ContentSearchReport {
  const compiled = compileSearchPattern(job.pattern, job);
  if (!compiled.ok) throw new Error(compiled.message); // checked on the main thread already
  const matcher = new BlockMatcher(compiled.pattern);
  const bounds = newScanBounds(newWalkProblems());
  const matchesGlob = job.glob
    ? picomatch(job.glob, { dot: true, basename: !job.glob.includes('/') })
    : undefined;
  const buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  const matches: SearchMatch[] = [];
  let leftOut = 0;
  const filesWithLeftOut = new Set<string>();
  const onMatch = (path: string, line: number, text: string): void => {
    if (matches.length < job.maxResults) {
      matches.push({ path, line, text: shownText(text, matcher) });
    } else {
      leftOut += 1;
      filesWithLeftOut.add(path);
    }
  };

  const entries: Iterable<WalkEntry> = job.startIsFile
    ? [{ relative: job.startRelative, absolute: job.start, type: 'file' }]
    : walkProject(job.folder, job.start, bounds.walk);
  let finished = true;
  for (const entry of entries) {
    if (entry.type === 'dir') continue;
    if (matchesGlob && !matchesGlob(entry.relative)) continue;
    if (entry.type === 'symlink') {
      bounds.symlinks += 1;
      continue;
    }
    if (entry.type === 'special') {
      bounds.special += 1;
      continue;
    }
    const admitted = admitItem(bounds, job.limits);
    if (admitted === 'stop') {
      finished = false;
      break;
    }
    if (admitted === 'count') continue;
    if (!searchFile(entry, buffer, matcher, bounds, job.limits.deadline, onMatch)) {
      finished = false;
      break;
    }
  }
  bounds.walkFinished = finished;
  return { kind: 'content', matches, leftOut, filesWithLeftOut: filesWithLeftOut.size, bounds };
}

/** Searches one file; false when the deadline struck inside it. */
function searchFile(
  entry: WalkEntry,
  buffer: Buffer,
  matcher: BlockMatcher,
  bounds: ScanBounds,
  deadline: number,
  onMatch: (path: string, line: number, text: string) => void,
): boolean {
  const opened = openRegularFileSync(entry.absolute);
  if (!opened.ok) {
    if (opened.reason === 'not-regular') bounds.special += 1;
    else recordUnreadableFile(bounds, entry.relative, opened.code);
    return true;
  }
  try {
    let first = true;
    let inLongLine = false;
    for (const block of readLineBlocks(opened.fd, opened.size, buffer)) {
      if (first && block.encoding === 'utf8' && sniffBinary(block.bytes)) {
        bounds.binary += 1;
        return true;
      }
      if (block.piece && !inLongLine) bounds.longLines += 1;
      inLongLine = block.piece;
      const verdict = matcher.search(block, first, (line, text) =>
        onMatch(entry.relative, line, text),
      );
      if (verdict === 'binary') {
        bounds.binary += 1;
        return true;
      }
      first = false;
      if (Date.now() > deadline) {
        bounds.stoppedBy = 'time-limit';
        bounds.stoppedIn = { relative: entry.relative, line: block.firstLine };
        return false;
      }
    }
    return true;
  } catch (error) {
    recordUnreadableFile(bounds, entry.relative, (error as NodeJS.ErrnoException).code ?? 'error');
    return true;
  } finally {
    closeSync(opened.fd);
  }
}

/** Runs the compiled pattern over blocks: prefilter, whole-block test, then line by line. */
class BlockMatcher {
  private readonly bytesNeedles: readonly Buffer[] | undefined;
  private readonly textNeedle: RegExp | undefined;

  constructor(readonly compiled: CompiledPattern) {
    const literals = compiled.prefilter.literals;
    const usable = literals.length > 0 && literals.every(isPlainText);
    if (usable && !compiled.prefilter.caseInsensitive) {
      this.bytesNeedles = literals.map((l) => Buffer.from(l, 'utf8'));
    } else if (usable) {
      // Plain text alternatives only: linear enough for V8's engine, and it folds case as RE2 does.
      const source = literals.map((l) => l.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
      this.textNeedle = new RegExp(source, 'iu');
    }
  }

  search(
    block: LineBlock,
    first: boolean,
    onLine: (line: number, text: string) => void,
  ): 'binary' | 'ok' {
    const bytes = block.bytes;
    if (this.bytesNeedles && !this.bytesNeedles.some((needle) => bytes.indexOf(needle) !== -1)) {
      return 'ok';
    }
    const text = bytes.toString('utf8');
    if (first && block.encoding === 'utf8' && looksBinary(text)) return 'binary';
    if (this.textNeedle && !this.textNeedle.test(text)) return 'ok';
    // Lines are compared without their \r; so is the whole block, so `$` works on CRLF files.
    const flat = text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
    const regex = this.compiled.regex;
    if (!regex.test(flat)) return 'ok';
    const lines = flat.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i] as string;
      if (regex.test(line)) onLine(block.firstLine + i, line);
    }
    return 'ok';
  }

  /** Where the first match starts in `line` (for showing the part of a long line around it). */
  matchStart(line: string): number {
    const found = this.compiled.regex.matcher(line);
    return found.find() ? found.start() : 0;
  }
}

/** Text that survives a UTF-8 round trip and holds no U+FFFD, so bytes and text agree on it. */
function isPlainText(literal: string): boolean {
  return (
    literal.length > 0 &&
    !literal.includes('\uFFFD') &&
    Buffer.from(literal, 'utf8').toString('utf8') === literal
  );
}

function shownText(line: string, matcher: BlockMatcher): string {
  const text = line.trim();
  if (text.length <= MAX_SHOWN_CHARS) return text;
  const start = Math.max(0, matcher.matchStart(text) - 100);
  const shown = text.slice(start, start + MAX_SHOWN_CHARS);
  return `${start > 0 ? '…' : ''}${shown}…`;
}
