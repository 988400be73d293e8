// One entry of the change tracker's index: what a path was at the last look (stat fields to tell
// cheaply whether it changed, and for files the content's object id). Symlinks are recorded as
// links (their target), never followed; folders are kept for structure, not reported as changes.
import { readlinkSync, type Stats } from 'node:fs';
import type { FileImage } from './file-image';
import { TooBigError, type ObjectStore } from './object-store';

export type TreeEntry =
  | {
      readonly kind: 'file';
      readonly size: number;
      readonly mtimeMs: number;
      readonly ctimeMs: number;
      readonly ino: number;
      readonly mode: number;
      readonly sha256: string;
      /** Changed too recently to trust the stat alone: the next look reads it again. */
      readonly racy?: true;
    }
  | {
      readonly kind: 'symlink';
      readonly target: string;
      readonly mtimeMs: number;
      readonly ctimeMs: number;
      readonly ino: number;
    }
  | { readonly kind: 'dir'; readonly ino: number };

/**
 * File systems stamp times with a coarse clock (a jiffy on Linux, whole seconds on some). A file
 * stamped this close to the look could change again with the same stat, so it is read next time.
 */
export const RACY_WINDOW_MS = 3000;

export function sameStat(entry: TreeEntry | undefined, stats: Stats): boolean {
  if (!entry) return false;
  switch (entry.kind) {
    case 'file':
      return (
        stats.isFile() &&
        entry.racy !== true &&
        entry.size === stats.size &&
        entry.mtimeMs === stats.mtimeMs &&
        entry.ctimeMs === stats.ctimeMs &&
        entry.ino === stats.ino &&
        entry.mode === (stats.mode & 0o7777)
      );
    case 'symlink':
      return (
        stats.isSymbolicLink() &&
        entry.mtimeMs === stats.mtimeMs &&
        entry.ctimeMs === stats.ctimeMs &&
        entry.ino === stats.ino
      );
    case 'dir':
      return stats.isDirectory() && entry.ino === stats.ino;
  }
}

export function isRacy(stats: Stats, lookedAtMs: number): boolean {
  return Math.max(stats.mtimeMs, stats.ctimeMs) >= lookedAtMs - RACY_WINDOW_MS;
}

/** The journal's view of an entry (folders and missing paths are both "absent" for undo). */
export function imageOfEntry(entry: TreeEntry | undefined): FileImage {
  if (!entry || entry.kind === 'dir') return { kind: 'absent' };
  if (entry.kind === 'symlink') return { kind: 'symlink', target: entry.target };
  return { kind: 'file', sha256: entry.sha256, size: entry.size, mode: entry.mode };
}

/** Whether two entries differ in anything a person would call a change (not times). */
export function sameContent(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  const left = imageOfEntry(a);
  const right = imageOfEntry(b);
  if (left.kind === 'file' && right.kind === 'file')
    return left.sha256 === right.sha256 && left.mode === right.mode;
  if (left.kind === 'symlink' && right.kind === 'symlink') return left.target === right.target;
  return left.kind === right.kind;
}

/** Checks a value read back from the index file; undefined when it is not an entry. */
export function parseEntry(value: unknown): TreeEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const num = (key: string): boolean => typeof v[key] === 'number' && Number.isFinite(v[key]);
  switch (v.kind) {
    case 'file':
      return ['size', 'mtimeMs', 'ctimeMs', 'ino', 'mode'].every(num) &&
        typeof v.sha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(v.sha256)
        ? (value as TreeEntry)
        : undefined;
    case 'symlink':
      return ['mtimeMs', 'ctimeMs', 'ino'].every(num) && typeof v.target === 'string'
        ? (value as TreeEntry)
        : undefined;
    case 'dir':
      return num('ino') ? (value as TreeEntry) : undefined;
    default:
      return undefined;
  }
}

export type ReadEntry =
  | { readonly kind: 'entry'; readonly entry: TreeEntry }
  /** Gone, or not a file or symlink (FIFOs, sockets, devices are not tracked, never opened). */
  | { readonly kind: 'none' }
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * Reads a path whose stat changed: a file's content into the store (opened through verified-fs,
 * `root` being the project's real path), a symlink's target. A file above `maxBytes` is not read
 * (TooBigError).
 */
export async function readEntry(
  root: string,
  abs: string,
  stats: Stats,
  lookedAt: number,
  objects: ObjectStore,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<ReadEntry> {
  if (stats.isSymbolicLink()) {
    try {
      const target = readlinkSync(abs);
      const { mtimeMs, ctimeMs, ino } = stats;
      return { kind: 'entry', entry: { kind: 'symlink', target, mtimeMs, ctimeMs, ino } };
    } catch {
      return { kind: 'none' };
    }
  }
  if (!stats.isFile()) return { kind: 'none' };
  let stored;
  try {
    stored = await objects.putFile(root, abs, true, maxBytes);
  } catch (error) {
    if (error instanceof TooBigError) throw error; // The caller's cap, not an unreadable file.
    return {
      kind: 'unreadable',
      reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
    };
  }
  if (!stored) return { kind: 'none' };
  const s = stored.stats;
  const entry: TreeEntry = {
    kind: 'file',
    size: stored.size,
    mtimeMs: s.mtimeMs,
    ctimeMs: s.ctimeMs,
    ino: s.ino,
    mode: s.mode & 0o7777,
    sha256: stored.sha256,
    ...(!stored.stable || isRacy(s, lookedAt) ? { racy: true as const } : {}),
  };
  return { kind: 'entry', entry };
}
