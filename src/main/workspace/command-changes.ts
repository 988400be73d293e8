// What a command changed, described for the person and the model: one FileChangeReport per file
// from its before and after images (objects in the store). Text files up to the diff cap get a
// unified diff (bounded in work and size); bigger ones are compared by hash and size only and are
// never loaded (issue 10 item 8); binary files and symlinks get a one-line description.
import { structuredPatch, formatPatch } from 'diff';
import { relative } from 'node:path';
import { displayPath, type ChangeStatus, type FileChangeReport } from '../../shared/change-report';
import type { FileImage } from './file-image';
import type { ObjectStore } from './object-store';

/** Files larger than this (either side) are described without a text diff. */
export const DIFF_MAX_BYTES = 1024 * 1024;
const MAX_DIFF_CHARS = 40_000;
const MAX_TOTAL_DIFF_CHARS = 400_000;
/** jsdiff gives up beyond this many milliseconds per file (then the diff is not shown). */
const DIFF_TIMEOUT_MS = 500;

export interface ImagePair {
  /** Absolute path. */
  readonly path: string;
  readonly before: FileImage;
  readonly after: FileImage;
}

export function describeCommandFiles(
  folder: string,
  pairs: readonly ImagePair[],
  objects: ObjectStore,
): FileChangeReport[] {
  let budget = MAX_TOTAL_DIFF_CHARS;
  const sorted = [...pairs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sorted.map((pair) => {
    const report = describeOne(relative(folder, pair.path), pair, objects, budget > 0);
    budget -= report.diff.length;
    return report;
  });
}

function describeOne(
  rel: string,
  pair: ImagePair,
  objects: ObjectStore,
  withDiff: boolean,
): FileChangeReport {
  const { before, after } = pair;
  const status = statusOf(before, after);
  const sizes = {
    ...(before.kind === 'file' ? { sizeBefore: before.size } : {}),
    ...(after.kind === 'file' ? { sizeAfter: after.size } : {}),
  };
  const base = { path: rel, status, added: 0, removed: 0, ...sizes };
  if (before.kind === 'symlink' || after.kind === 'symlink') {
    const from =
      before.kind === 'symlink' ? `symlink to ${displayPath(before.target)}` : before.kind;
    const to = after.kind === 'symlink' ? `symlink to ${displayPath(after.target)}` : after.kind;
    return { ...base, content: 'symlink', diff: `${displayPath(rel)}: ${from} → ${to}\n` };
  }
  if (before.kind !== 'file' && after.kind !== 'file')
    return { ...base, content: 'none', diff: '' };
  if (status === 'mode-changed' && before.kind === 'file' && after.kind === 'file') {
    return {
      ...base,
      content: 'none',
      diff: `${displayPath(rel)}: mode ${octal(before.mode)} → ${octal(after.mode)}\n`,
    };
  }
  const tooBig =
    (before.kind === 'file' && before.size > DIFF_MAX_BYTES) ||
    (after.kind === 'file' && after.size > DIFF_MAX_BYTES);
  if (tooBig) return { ...base, content: 'big', diff: '' };
  let oldBytes: Buffer;
  let newBytes: Buffer;
  try {
    oldBytes = before.kind === 'file' ? objects.read(before.sha256) : Buffer.alloc(0);
    newBytes = after.kind === 'file' ? objects.read(after.sha256) : Buffer.alloc(0);
  } catch {
    // A kept copy missing, damaged or not the store's own file: no diff, and nothing of it shown.
    const note = `${displayPath(rel)}: no diff: the kept copy could not be read\n`;
    return { ...base, content: 'none', diff: note };
  }
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    return {
      ...base,
      content: 'binary',
      diff: `Binary file ${displayPath(rel)} ${status} (${oldBytes.length} → ${newBytes.length} bytes)\n`,
    };
  }
  const name = displayPath(rel);
  const patch = structuredPatch(
    status === 'added' ? '/dev/null' : `a/${name}`,
    status === 'deleted' ? '/dev/null' : `b/${name}`,
    oldBytes.toString('utf8'),
    newBytes.toString('utf8'),
    '',
    '',
    { context: 3, timeout: DIFF_TIMEOUT_MS },
  );
  if (!patch) {
    return { ...base, content: 'text', diff: `${name}: too many changes to show a diff\n` };
  }
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  let diff = withDiff ? formatPatch(patch) : '';
  if (diff.length > MAX_DIFF_CHARS)
    diff = `${diff.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters)\n`;
  return { ...base, added, removed, content: 'text', diff };
}

function statusOf(before: FileImage, after: FileImage): ChangeStatus {
  if (before.kind === 'absent') return 'added';
  if (after.kind === 'absent') return 'deleted';
  if (before.kind !== after.kind) return 'type-changed';
  if (before.kind === 'file' && after.kind === 'file' && before.sha256 === after.sha256)
    return 'mode-changed';
  return 'modified';
}

function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

function octal(mode: number): string {
  return mode.toString(8).padStart(4, '0');
}
