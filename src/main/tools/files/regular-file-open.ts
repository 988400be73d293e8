// The one place search, the project walk and read_file open a file in the project. The open
// itself cannot block (O_NONBLOCK: a FIFO swapped in after the walk saw a file does not hang
// us), does not follow a final symlink (O_NOFOLLOW), and the open file must be a regular file
// (fstat on the descriptor, so no check-then-open race). Keep file opening here so it can move to
// the workspace's verified open in one step.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

// libuv adds O_CLOEXEC itself, so no descriptor leaks into a command the shell tool starts.
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export type OpenFailure =
  | { readonly ok: false; readonly reason: 'not-regular'; readonly kind: string }
  | { readonly ok: false; readonly reason: 'unreadable'; readonly code: string };

export type OpenedFile =
  { readonly ok: true; readonly fd: number; readonly size: number } | OpenFailure;

export type OpenedHandle =
  { readonly ok: true; readonly handle: FileHandle; readonly size: number } | OpenFailure;

/** Opens `path` for reading (worker code: synchronous). Close `fd` with closeSync. */
export function openRegularFileSync(path: string): OpenedFile {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      closeSync(fd);
      return { ok: false, reason: 'not-regular', kind: kindOf(stats) };
    }
    return { ok: true, fd, size: stats.size };
  } catch (error) {
    closeSync(fd);
    return failure(error);
  }
}

/** The whole of a small regular file (a `.gitignore`), at most `maxBytes`; undefined if unreadable. */
export function readSmallFileSync(path: string, maxBytes: number): Buffer | undefined {
  const opened = openRegularFileSync(path);
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

/** Opens `path` for reading on the main thread. Close the handle when done. */
export async function openRegularFile(path: string): Promise<OpenedHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return { ok: false, reason: 'not-regular', kind: kindOf(stats) };
    }
    return { ok: true, handle, size: stats.size };
  } catch (error) {
    await handle.close();
    return failure(error);
  }
}

/** How a failure reads in a message: "is a folder", "is a FIFO (named pipe)", "cannot be read (EACCES)". */
export function describeOpenFailure(failure: OpenFailure): string {
  return failure.reason === 'not-regular'
    ? `is a ${failure.kind}, not a regular file`
    : `cannot be read (${failure.code})`;
}

interface StatsKind {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
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
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  // O_NOFOLLOW on a symlink fails with ELOOP: the path is a link, which we never follow here.
  if (code === 'ELOOP') return { ok: false, reason: 'not-regular', kind: 'symbolic link' };
  return { ok: false, reason: 'unreadable', code };
}
