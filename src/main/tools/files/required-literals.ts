// The prefilter: text that every match must contain, found from the pattern's tokens, so a file
// without it is skipped by a byte search (as grep does) instead of running the regex over it.
// It must never be wrong in the other direction (a file skipped that has a match), so anything
// not understood here gives no prefilter at all, and the result only ever errs towards "search".
import type { RegexToken } from './regex-tokens';

export interface Prefilter {
  /**
   * One entry per top-level alternative: the runs of text that alternative always contains,
   * longest first. A line can match only if, for some alternative, it contains all its runs.
   * Empty means "no prefilter".
   */
  readonly branches: readonly (readonly string[])[];
  /** Compare ignoring case (set whenever any part of the pattern may ignore case). */
  readonly caseInsensitive: boolean;
}

/**
 * For each top-level alternative, the runs of characters it always matches in a row. Groups are
 * opaque here (their content may be optional or alternated); an alternative with no run of its
 * own means there is no prefilter.
 */
export function requiredLiterals(tokens: readonly RegexToken[], ignoreCase: boolean): Prefilter {
  const caseInsensitive = ignoreCase || tokens.some(setsIgnoreCase);
  const branches: string[][] = [];
  for (const branch of topLevelBranches(tokens)) {
    const runs = requiredRuns(branch);
    if (runs.length === 0) return { branches: [], caseInsensitive };
    branches.push(runs.sort((a, b) => b.length - a.length));
  }
  return { branches, caseInsensitive };
}

function setsIgnoreCase(token: RegexToken): boolean {
  if (token.kind !== 'flags' && token.kind !== 'open') return false;
  const enabled = /^\(\?([a-zA-Z]*)/.exec(token.text)?.[1] ?? '';
  return enabled.includes('i');
}

function topLevelBranches(tokens: readonly RegexToken[]): RegexToken[][] {
  const branches: RegexToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'open') depth += 1;
    if (token.kind === 'close') depth -= 1;
    if (token.kind === 'alternation' && depth === 0) branches.push([]);
    else branches[branches.length - 1]?.push(token);
  }
  return branches;
}

function requiredRuns(branch: readonly RegexToken[]): string[] {
  const runs: string[] = [];
  let run = '';
  const endRun = (): void => {
    if (run) runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < branch.length) {
    const token = branch[i] as RegexToken;
    if (token.kind === 'open') {
      i = afterGroup(branch, i);
      endRun(); // The group's content is not looked into.
      i = skipQuantifier(branch, i);
      continue;
    }
    const next = branch[i + 1];
    const quantified = next?.kind === 'quantifier' ? next : undefined;
    if (token.kind === 'literal') {
      if (quantified && quantified.min === 0) {
        endRun(); // Optional: the run cannot continue across it.
      } else if (quantified) {
        run += token.char; // At least once, but the repeats may follow: the run ends here.
        endRun();
      } else {
        run += token.char;
      }
    } else {
      endRun(); // Atoms, assertions, flags: the run stops (conservative for zero-width ones too).
    }
    i += quantified ? 2 : 1;
  }
  endRun();
  return runs;
}

/** Index just past the `)` matching the group opened at `start` (or the end). */
function afterGroup(tokens: readonly RegexToken[], start: number): number {
  let depth = 0;
  for (let i = start; i < tokens.length; i += 1) {
    const kind = tokens[i]?.kind;
    if (kind === 'open') depth += 1;
    if (kind === 'close') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return tokens.length;
}

function skipQuantifier(tokens: readonly RegexToken[], i: number): number {
  return tokens[i]?.kind === 'quantifier' ? i + 1 : i;
}
