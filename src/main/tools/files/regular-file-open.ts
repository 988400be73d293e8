// The one place the scan worker (search, the project walk, big read_file windows) opens a file
// in the project, always through the workspace's verified access (issue 9 item 5): a folder
// swapped for a symlink out of the project gets a refusal, never the file behind it. The open
// cannot block (O_NONBLOCK: a FIFO swapped in after the walk saw a file does not hang us), does
// not follow a final symlink (O_NOFOLLOW), and the open file must be a regular file (fstat on the
// descriptor, so no check-then-open race). Synchronous, as the worker is (verified-dir-sync.ts);
// the main thread reads through verified-fs.ts directly.
import { closeSync, readSync } from 'node:fs';
import {
  openForReadVerifiedSync,
  type OpenedFileSync,
  type VerifiedDirSync,
} from '../../workspace/verified-dir-sync';
import { UnverifiedPathError } from '../../workspace/verified-fs';

export type OpenFailure =
  | { readonly ok: false; readonly reason: 'not-regular'; readonly kind: string }
  | { readonly ok: false; readonly reason: 'unreadable'; readonly code: string };

export type OpenedFile =
  { readonly ok: true; readonly fd: number; readonly size: number } | OpenFailure;

/** Opens `name` in a folder the walk verified (worker code: synchronous). Close `fd` with closeSync. */
export function openRegularFileSync(dir: VerifiedDirSync, name: string): OpenedFile {
  return regularOnly(() => dir.openForRead(name));
}

/** Opens the file at `path`, a real path inside `root`, and verifies it (worker code). */
export function openRegularFileAtSync(root: string, path: string): OpenedFile {
  return regularOnly(() => openForReadVerifiedSync(root, path));
}

/** The whole of a small regular file (a `.gitignore`), at most `maxBytes`; undefined if unreadable. */
export function readSmallFileSync(
  dir: VerifiedDirSync,
  name: string,
  maxBytes: number,
): Buffer | undefined {
  const opened = openRegularFileSync(dir, name);
  if (!opened.ok) return undefined;
  try {
    const bytes = Buffer.allocUnsafe(Math.min(opened.size, maxBytes));
    let filled = 0;
    while (filled < bytes.length) {
      const count = readSync(opened.fd, bytes, filled, bytes.length - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    return bytes.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/** How a failure reads in a message: "is a folder", "is a FIFO (named pipe)", "cannot be read (EACCES)". */
export function describeOpenFailure(failure: OpenFailure): string {
  return failure.reason === 'not-regular'
    ? `is a ${failure.kind}, not a regular file`
    : `cannot be read (${failure.code})`;
}

/** What a failed open or listing is called in a note: the error code, or why it was not verified. */
export function failureCode(error: unknown): string {
  if (error instanceof UnverifiedPathError) return `not verified: ${error.why}`;
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

function regularOnly(open: () => OpenedFileSync): OpenedFile {
  let opened: OpenedFileSync;
  try {
    opened = open();
  } catch (error) {
    return failure(error);
  }
  if (!opened.stats.isFile()) {
    closeSync(opened.fd);
    return { ok: false, reason: 'not-regular', kind: kindOf(opened.stats) };
  }
  return { ok: true, fd: opened.fd, size: Number(opened.stats.size) };
}

interface StatsKind {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

function kindOf(stats: StatsKind): string {
  if (stats.isDirectory()) return 'folder';
  if (stats.isFIFO()) return 'FIFO (named pipe)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  return 'special file';
}

function failure(error: unknown): OpenFailure {
  // O_NOFOLLOW on a symlink fails with ELOOP: the name is a link now, which we never follow.
  if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
    return { ok: false, reason: 'not-regular', kind: 'symbolic link' };
  }
  return { ok: false, reason: 'unreadable', code: failureCode(error) };
}
