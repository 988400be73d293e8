// What a shell command changed on disk, built from two shadow-git trees: a summary
// ("3 files changed, +12 −4") and one unified diff per file.
import { createTwoFilesPatch } from 'diff';
import { diffStats } from './diff-stats';

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'type-changed';

export interface ChangedFile {
  /** Relative to the project folder. */
  readonly path: string;
  readonly status: ChangeStatus;
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
  /** Unified diff; for binary files a one-line description. Empty beyond the diff budget. */
  readonly diff: string;
}

export interface CommandChanges {
  /** "3 files changed, +12 −4", or "no files changed". */
  readonly summary: string;
  readonly files: readonly ChangedFile[];
}

/** One line of `git diff-tree -r -z --raw` output. */
export interface RawChange {
  readonly path: string;
  readonly status: ChangeStatus;
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldId: string;
  readonly newId: string;
}

const NULL_ID = /^0+$/;
const MAX_DIFF_CHARS = 40_000;
const MAX_TOTAL_DIFF_CHARS = 400_000;

export function parseRawDiff(output: Buffer): RawChange[] {
  const fields = output.toString('utf8').split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i] as string;
    const path = fields[i + 1] as string;
    const [oldMode = '', newMode = '', oldId = '', newId = '', code = ''] = meta
      .replace(/^:/, '')
      .split(' ');
    if (oldMode === '160000' || newMode === '160000') continue; // Nested repositories are not tracked.
    changes.push({ path, status: statusOf(code), oldMode, newMode, oldId, newId });
  }
  return changes;
}

function statusOf(code: string): ChangeStatus {
  switch (code[0]) {
    case 'A':
      return 'added';
    case 'D':
      return 'deleted';
    case 'T':
      return 'type-changed';
    default:
      return 'modified';
  }
}

export function hasContent(id: string): boolean {
  return id !== '' && !NULL_ID.test(id);
}

/** Builds the per-file diffs; `blobs` maps object ids to their content. */
export function describeChanges(
  raw: readonly RawChange[],
  blobs: ReadonlyMap<string, Buffer>,
): CommandChanges {
  let budget = MAX_TOTAL_DIFF_CHARS;
  let added = 0;
  let removed = 0;
  const files = raw.map((change): ChangedFile => {
    const before = hasContent(change.oldId) ? blobs.get(change.oldId) : undefined;
    const after = hasContent(change.newId) ? blobs.get(change.newId) : undefined;
    const binary = isBinary(before) || isBinary(after);
    if (binary) {
      return {
        path: change.path,
        status: change.status,
        added: 0,
        removed: 0,
        binary,
        diff: binaryNote(change, before, after),
      };
    }
    const oldText = before?.toString('utf8') ?? '';
    const newText = after?.toString('utf8') ?? '';
    const counts = diffStats(oldText, newText);
    added += counts.added;
    removed += counts.removed;
    let diff = createTwoFilesPatch(
      change.status === 'added' ? '/dev/null' : `a/${change.path}`,
      change.status === 'deleted' ? '/dev/null' : `b/${change.path}`,
      oldText,
      newText,
      '',
      '',
      { context: 3 },
    );
    if (diff.length > MAX_DIFF_CHARS)
      diff = `${diff.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters)\n`;
    if (budget <= 0) diff = '';
    budget -= diff.length;
    return { path: change.path, status: change.status, ...counts, binary, diff };
  });
  return { summary: summarize(files.length, added, removed), files };
}

function summarize(count: number, added: number, removed: number): string {
  if (count === 0) return 'no files changed';
  return `${count} file${count === 1 ? '' : 's'} changed, +${added} −${removed}`;
}

/** The changes as text for a tool result or the trace: summary, then each file's diff. */
export function renderChanges(changes: CommandChanges): string {
  const lines = [changes.summary];
  for (const file of changes.files) {
    lines.push(`${file.status} ${file.path} (+${file.added} −${file.removed})`);
  }
  const diffs = changes.files.map((file) => file.diff).filter((diff) => diff !== '');
  return [...lines, '', ...diffs].join('\n').trimEnd();
}

function isBinary(content: Buffer | undefined): boolean {
  return content !== undefined && content.subarray(0, 8000).includes(0);
}

function binaryNote(
  change: RawChange,
  before: Buffer | undefined,
  after: Buffer | undefined,
): string {
  return `Binary file ${change.path} ${change.status} (${before?.length ?? 0} → ${after?.length ?? 0} bytes)\n`;
}
