// The content search itself, synchronous because it runs in a scan worker: walk, open each file
// once through its verified folder (never by path), read it in blocks of whole lines (any size
// of file), and hand the blocks to the BlockMatcher. Several workers can share one search: each
// walks everything (so they agree on the files' order) and searches its shard of the files.
// Every limit that was hit is counted in `bounds`; past `countLimit` matches not shown, only
// files with matches are counted.
import { closeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import picomatch from 'picomatch';
import { VerifiedDirSync } from '../../workspace/verified-dir-sync';
import { BlockMatcher } from './block-matcher';
import { BLOCK_BYTES, readLineBlocks } from './line-blocks';
import { MatchCollector, type MatchSummary } from './match-collector';
import { failureCode, openRegularFileSync } from './regular-file-open';
import {
  admitItem,
  newScanBounds,
  recordUnreadableFile,
  type ScanBounds,
  type ScanLimits,
  type Shard,
} from './scan-bounds';
import { compileSearchPattern } from './search-pattern';
import { sniffBinary } from './text-decoding';
import { newWalkProblems, walkProject, type WalkEntry } from './walk-project';

export interface ContentSearchJob {
  readonly kind: 'content';
  /** Real path of the project folder. */
  readonly folder: string;
  /** Real path of the folder or file to search, inside `folder`. */
  readonly start: string;
  readonly startRelative: string;
  readonly startIsFile: boolean;
  /** Real paths the walk never enters (Tandem's own data folders). */
  readonly skip?: readonly string[];
  readonly pattern: string;
  readonly literal: boolean;
  readonly caseSensitive: boolean;
  readonly glob?: string;
  readonly maxResults: number;
  /** Matches not shown are counted up to this many; past it only files with matches are. */
  readonly countLimit: number;
  readonly limits: ScanLimits;
  readonly shard: Shard;
}

export interface ContentSearchReport extends MatchSummary {
  readonly kind: 'content';
  readonly bounds: ScanBounds;
}

export function searchContent(job: ContentSearchJob): ContentSearchReport {
  const compiled = compileSearchPattern(job.pattern, job);
  if (!compiled.ok) throw new Error(compiled.message); // checked on the main thread already
  const matcher = new BlockMatcher(compiled.pattern);
  const bounds = newScanBounds(newWalkProblems());
  const matchesGlob = job.glob
    ? picomatch(job.glob, { dot: true, basename: !job.glob.includes('/') })
    : undefined;
  const buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  const collector = new MatchCollector(job.maxResults, job.countLimit, matcher);
  // What the walk meets is the same for every shard, so only the first one counts it.
  const countsWalk = job.shard.index === 0;

  const entries: Iterable<WalkEntry> = job.startIsFile
    ? startFile(job, bounds)
    : walkProject(job.folder, job.start, bounds.walk, job.skip);
  let finished = true;
  for (const entry of entries) {
    if (entry.type === 'dir') continue;
    if (matchesGlob && !matchesGlob(entry.relative)) continue;
    if (entry.type === 'symlink' || entry.type === 'special') {
      if (countsWalk && entry.type === 'symlink') bounds.symlinks += 1;
      if (countsWalk && entry.type === 'special') bounds.special += 1;
      continue;
    }
    const order = bounds.itemsSeen;
    const admitted = admitItem(bounds, job.limits, job.shard);
    if (admitted === 'stop') {
      finished = false;
      break;
    }
    if (admitted === 'count') continue;
    const file = { ...entry, order };
    if (!searchFile(file, buffer, matcher, bounds, job.limits.deadline, collector)) {
      finished = false;
      break;
    }
  }
  bounds.walkFinished = finished;
  return { kind: 'content', ...collector.summary(), bounds };
}

/** The one file a search was pointed at, opened through its verified folder like the walk's. */
function* startFile(job: ContentSearchJob, bounds: ScanBounds): Generator<WalkEntry> {
  let dir: VerifiedDirSync;
  try {
    dir = VerifiedDirSync.open(job.folder, dirname(job.start));
  } catch (error) {
    recordUnreadableFile(bounds, job.startRelative, failureCode(error));
    return;
  }
  try {
    yield { relative: job.startRelative, type: 'file', dir, name: basename(job.start) };
  } finally {
    dir.close();
  }
}

/** Searches one file; false when the deadline struck inside it. */
function searchFile(
  file: WalkEntry & { readonly order: number },
  buffer: Buffer,
  matcher: BlockMatcher,
  bounds: ScanBounds,
  deadline: number,
  collector: MatchCollector,
): boolean {
  const opened = openRegularFileSync(file.dir, file.name);
  if (!opened.ok) {
    if (opened.reason === 'not-regular') bounds.special += 1;
    else recordUnreadableFile(bounds, file.relative, opened.code);
    return true;
  }
  const onLine = (line: number, text: string): boolean =>
    collector.add(file.relative, file.order, line, text);
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
      const verdict = matcher.search(block, first, onLine);
      if (verdict === 'binary') {
        bounds.binary += 1;
        return true;
      }
      if (verdict === 'enough') return true;
      first = false;
      if (Date.now() > deadline) {
        bounds.stoppedBy = 'time-limit';
        bounds.stoppedIn = { relative: file.relative, line: block.firstLine };
        return false;
      }
    }
    return true;
  } catch (error) {
    recordUnreadableFile(bounds, file.relative, (error as NodeJS.ErrnoException).code ?? 'error');
    return true;
  } finally {
    closeSync(opened.fd);
  }
}
