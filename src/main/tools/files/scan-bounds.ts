// The limits a scan (search, find, a big read) runs under, what it counts on the way, and how
// every limit that was hit is said in the result, so a result never looks complete when it is
// not ("searched 50,000 of at least 200,000 files; narrow the path").
import type { WalkProblems } from './walk-project';

export interface ScanLimits {
  /** Files whose content is searched (content search) or entries looked at (find). */
  readonly maxItems: number;
  /** After maxItems, the walk goes on counting (reading nothing) up to this many. */
  readonly maxCounted: number;
  /** Epoch ms after which the scan stops and reports what it has. */
  readonly deadline: number;
}

export interface ScanBounds {
  stoppedBy?: 'item-limit' | 'time-limit';
  /** Files searched (content) or entries matched against the pattern (find). */
  itemsDone: number;
  /** Items seen in all, counting those past a limit. */
  itemsSeen: number;
  /** False when the walk stopped before the end, so itemsSeen is a lower bound. */
  walkFinished: boolean;
  /** Where the time limit struck inside a big file. */
  stoppedIn?: { relative: string; line: number };
  binary: number;
  special: number;
  symlinks: number;
  /** Lines longer than the block size, searched in pieces. */
  longLines: number;
  readonly unreadableFiles: { relative: string; code: string }[];
  unreadableFileCount: number;
  readonly walk: WalkProblems;
}

const MAX_NAMED = 10;

export function newScanBounds(walk: WalkProblems): ScanBounds {
  return {
    itemsDone: 0,
    itemsSeen: 0,
    walkFinished: false,
    binary: 0,
    special: 0,
    symlinks: 0,
    longLines: 0,
    unreadableFiles: [],
    unreadableFileCount: 0,
    walk,
  };
}

/** Which share of the items a worker processes: those whose ordinal % count === index. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export const WHOLE: Shard = { index: 0, count: 1 };

/**
 * Counts the next item and says what to do with it: `process` it, only `count` it (another
 * shard's, or past the item limit, so the result can say how many were left), or `stop` (time,
 * or counted enough). Every shard walks all items, so all agree on the ordinals.
 */
export function admitItem(
  bounds: ScanBounds,
  limits: ScanLimits,
  shard: Shard,
): 'process' | 'count' | 'stop' {
  const ordinal = bounds.itemsSeen;
  bounds.itemsSeen += 1;
  if (Date.now() > limits.deadline) {
    bounds.stoppedBy ??= 'time-limit';
    return 'stop';
  }
  if (ordinal >= limits.maxItems) {
    bounds.stoppedBy ??= 'item-limit';
    return bounds.itemsSeen >= limits.maxCounted ? 'stop' : 'count';
  }
  if (ordinal % shard.count !== shard.index) return 'count';
  bounds.itemsDone += 1;
  return 'process';
}

/** One account of shards that each walked everything and processed their share. */
export function mergeBounds(shards: readonly ScanBounds[]): ScanBounds {
  const first = shards[0] as ScanBounds;
  const sum = (pick: (b: ScanBounds) => number): number =>
    shards.reduce((total, b) => total + pick(b), 0);
  const stoppedIn = shards.find((b) => b.stoppedIn)?.stoppedIn;
  const stoppedBy = shards.some((b) => b.stoppedBy === 'time-limit')
    ? 'time-limit'
    : first.stoppedBy;
  return {
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(stoppedIn ? { stoppedIn } : {}),
    itemsDone: sum((b) => b.itemsDone),
    itemsSeen: Math.max(...shards.map((b) => b.itemsSeen)),
    walkFinished: shards.every((b) => b.walkFinished),
    binary: sum((b) => b.binary),
    special: sum((b) => b.special),
    symlinks: sum((b) => b.symlinks),
    longLines: sum((b) => b.longLines),
    unreadableFiles: shards.flatMap((b) => b.unreadableFiles).slice(0, MAX_NAMED),
    unreadableFileCount: sum((b) => b.unreadableFileCount),
    walk: first.walk, // What the walk met is the same for every shard: shard 0 reports it.
  };
}

export function recordUnreadableFile(bounds: ScanBounds, relative: string, code: string): void {
  bounds.unreadableFileCount += 1;
  if (bounds.unreadableFiles.length < MAX_NAMED) bounds.unreadableFiles.push({ relative, code });
}

export interface BoundsWording {
  /** "searched" (content) or "looked at" (names). */
  readonly verb: string;
  /** "files" or "entries". */
  readonly noun: string;
  readonly limitSeconds: number;
}

/** One line per thing the model must know about what was not searched. */
export function describeBounds(bounds: ScanBounds, wording: BoundsWording): string[] {
  const { verb, noun, limitSeconds } = wording;
  const notes: string[] = [];
  const seen = `${bounds.walkFinished ? '' : 'at least '}${count(bounds.itemsSeen)}`;
  if (bounds.stoppedBy === 'item-limit') {
    notes.push(
      `(Stopped at the limit: ${verb} ${count(bounds.itemsDone)} of ${seen} ${noun}; narrow the path or pattern to see the rest.)`,
    );
  } else if (bounds.stoppedBy === 'time-limit') {
    const where = bounds.stoppedIn
      ? ` while in ${bounds.stoppedIn.relative} at line ${count(bounds.stoppedIn.line)}`
      : '';
    notes.push(
      `(Stopped at the ${limitSeconds} s time limit${where}: ${verb} ${count(bounds.itemsDone)} of ${seen} ${noun}; narrow the path or pattern to see the rest.)`,
    );
  }
  if (bounds.walk.ignoredStart) {
    notes.push(
      '(This folder is ignored by .gitignore; it was included because the path names it.)',
    );
  }
  if (bounds.walk.unreadableCount > 0) {
    notes.push(
      `(${bounds.walk.unreadableCount} folder(s) could not be read, so what is in them is missing here: ${named(bounds.walk.unreadable, bounds.walk.unreadableCount)})`,
    );
  }
  if (bounds.unreadableFileCount > 0) {
    notes.push(
      `(${bounds.unreadableFileCount} file(s) could not be read: ${named(bounds.unreadableFiles, bounds.unreadableFileCount)})`,
    );
  }
  if (bounds.longLines > 0) {
    notes.push(
      `(${bounds.longLines} line(s) longer than 4 MB were searched in 4 MB pieces; a match across two pieces would be missed.)`,
    );
  }
  if (bounds.binary > 0) notes.push(`(${bounds.binary} binary file(s) not searched.)`);
  if (bounds.special > 0) {
    notes.push(`(${bounds.special} FIFO(s), socket(s) or device(s) skipped: they are not files.)`);
  }
  if (bounds.symlinks > 0) {
    notes.push(
      `(${bounds.symlinks} symbolic link(s) not followed; their targets inside the project are searched where they are.)`,
    );
  }
  return notes;
}

function named(list: readonly { relative: string; code: string }[], total: number): string {
  const shown = list.map((item) => `${item.relative} (${item.code})`).join(', ');
  return total > list.length ? `${shown}, and ${total - list.length} more` : shown;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
