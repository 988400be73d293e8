// Keeps the matches a search shows and counts the rest, per worker, and merges the workers'
// reports back into walk order: each match carries the ordinal of its file in the walk, which
// every shard agrees on, so the merged list is the one a single worker would have produced.
import type { BlockMatcher } from './block-matcher';

export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
  /** The file's ordinal in the walk (for merging shards in order). */
  readonly order: number;
}

export interface MatchSummary {
  readonly matches: SearchMatch[];
  /** Matching lines not shown (a lower bound when `countingStopped`). */
  readonly leftOut: number;
  /** Files with matching lines not shown. */
  readonly filesWithLeftOut: string[];
  readonly countingStopped: boolean;
}

const MAX_SHOWN_CHARS = 300;

export class MatchCollector {
  private readonly matches: SearchMatch[] = [];
  private leftOut = 0;
  private readonly filesWithLeftOut = new Set<string>();
  private countingStopped = false;

  constructor(
    private readonly maxResults: number,
    private readonly countLimit: number,
    private readonly matcher: BlockMatcher,
  ) {}

  /** Records a matching line; false when the file needs no more lines (counting has stopped). */
  add(path: string, order: number, line: number, text: string): boolean {
    if (this.matches.length < this.maxResults) {
      this.matches.push({ path, order, line, text: shownText(text, this.matcher) });
      return true;
    }
    this.filesWithLeftOut.add(path);
    if (this.countingStopped) return false;
    this.leftOut += 1;
    if (this.leftOut >= this.countLimit) this.countingStopped = true;
    return !this.countingStopped;
  }

  summary(): MatchSummary {
    return {
      matches: this.matches,
      leftOut: this.leftOut,
      filesWithLeftOut: [...this.filesWithLeftOut],
      countingStopped: this.countingStopped,
    };
  }
}

/**
 * The summary one worker would have made: the first `maxResults` matches in walk order are shown
 * (each shard sent its own first ones, so the overall first ones are among them); the others
 * join the left-out count.
 */
export function mergeMatchSummaries(
  summaries: readonly MatchSummary[],
  maxResults: number,
): MatchSummary {
  const all = summaries
    .flatMap((s) => s.matches)
    .sort((a, b) => a.order - b.order || a.line - b.line);
  const shown = all.slice(0, maxResults);
  const demoted = all.slice(maxResults);
  const files = new Set(summaries.flatMap((s) => s.filesWithLeftOut));
  for (const match of demoted) files.add(match.path);
  return {
    matches: shown,
    leftOut: summaries.reduce((sum, s) => sum + s.leftOut, 0) + demoted.length,
    filesWithLeftOut: [...files],
    countingStopped: summaries.some((s) => s.countingStopped),
  };
}

function shownText(line: string, matcher: BlockMatcher): string {
  const text = line.trim();
  if (text.length <= MAX_SHOWN_CHARS) return text;
  const start = Math.max(0, matcher.matchStart(text) - 100);
  const end = start + MAX_SHOWN_CHARS;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
