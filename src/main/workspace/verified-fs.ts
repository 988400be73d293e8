// The only way Tandem touches a file of the project (issue 9 item 5). `guardPath` judges a path
// (policy: is it inside, what does it resolve to); this module then opens exactly that real path
// and proves, from the open descriptor, that it is what was judged before reading or writing
// (fd-verify.ts). A folder swapped for a symlink between the two gets a refusal, never the file
// behind the symlink. The file tools and the undo journal (before/after images, its writes,
// reverts, crash reconcile) come through here; the scan worker (search, find_files, big read_file
// windows) and change tracking's content reads use the synchronous twin, verified-dir-sync.ts.
// Tandem's own data folder (journal, object store) is not reachable by the agent and uses plain
// calls.
//
// API — `root` is the project's real path; `path` is a real path inside it (the guard's `path`,
// absolute, or relative to root), with no symlinks in it. A path that is not its own real path is
// refused, not followed. Every function throws UnverifiedPathError when it cannot verify.
//   readFileVerified(root, path, { maxBytes })   → ReadOutcome (file bytes | missing | folder | …)
//   readEntryVerified(root, path, { maxBytes })  → the same, but a final symlink is reported as
//                                                  { kind: 'symlink', target } instead of refused
//   openVerified(root, path)                     → VerifiedFile: an open, verified read handle
//   openDirVerified(root, path, { create })      → VerifiedDir: list, lstat, readlink, open and
//                                                  change single names inside that exact folder
//   writeFileVerified(root, path, content, { mode, createParents, tempName })
//                                                → atomic replace (temp file + rename) inside the
//                                                  verified folder, then checks what the name holds;
//                                                  content may be a writer that streams into the temp
//   removeFileVerified(root, path)               → unlinks a file or symlink; false if absent
//   symlinkVerified(root, path, target)          → (re)creates a symlink
//   removeEmptyFoldersVerified(root, from, stopAt) → rmdir from `from` upwards, stopping at `stopAt`
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { UnverifiedPathError } from './fd-verify';
import { isInside } from './path-guard';
import { errno, openForReadVerified, VerifiedDir, type VerifiedFile } from './verified-dir';

export { UnverifiedPathError } from './fd-verify';
export { VerifiedDir, type VerifiedFile } from './verified-dir';

export type ReadOutcome =
  | { readonly kind: 'file'; readonly bytes: Buffer; readonly mode: number }
  | { readonly kind: 'missing' }
  | { readonly kind: 'folder' }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'too-large'; readonly size: number }
  /** A FIFO, socket or device: never read. */
  | { readonly kind: 'other' };

export interface ReadOptions {
  /** Larger files are reported as too-large instead of read. */
  readonly maxBytes?: number;
}

export interface WriteOptions {
  /** File mode for the result; default: the existing file's mode, else 0o666 minus umask. */
  readonly mode?: number;
  /** Create missing parent folders (default true), each inside a verified parent. */
  readonly createParents?: boolean;
  /**
   * The temp file's name (one name, in the file's folder), for a caller that announced it before
   * the write, as the undo journal does so that a crash leaves nothing unnamed behind.
   */
  readonly tempName?: string;
}

/** What to write: bytes, or a writer that fills the open temp file (a big file streamed in). */
export type WriteContent = string | Uint8Array | ((file: FileHandle) => Promise<void>);

/** Reads the file at `path`. A final symlink is refused: the checked real path had none. */
export async function readFileVerified(
  root: string,
  path: string,
  options: ReadOptions = {},
): Promise<ReadOutcome> {
  const target = expectedPath(root, path);
  let file: VerifiedFile;
  try {
    file = await openForReadVerified(root, target);
  } catch (error) {
    if (isMissing(error)) return { kind: 'missing' };
    throw error;
  }
  return readOpened(file, options);
}

/** Like readFileVerified, but looks at the final name without following it (the journal's view). */
export async function readEntryVerified(
  root: string,
  path: string,
  options: ReadOptions = {},
): Promise<ReadOutcome> {
  const target = expectedPath(root, path);
  if (target === root) return { kind: 'folder' };
  const dir = await openParent(root, target);
  if (!dir) return { kind: 'missing' };
  try {
    const name = basename(target);
    const stats = await dir.lstat(name);
    if (!stats) return { kind: 'missing' };
    if (stats.isSymbolicLink()) return { kind: 'symlink', target: await dir.readlink(name) };
    if (stats.isDirectory()) return { kind: 'folder' };
    if (!stats.isFile()) return { kind: 'other' };
    return await readOpened(await dir.openForRead(name), options);
  } finally {
    await dir.close();
  }
}

/** An open, verified read handle for `path` (file or folder); the caller closes it. */
export function openVerified(root: string, path: string): Promise<VerifiedFile> {
  return openForReadVerified(root, expectedPath(root, path));
}

/** The verified folder at `path`; the caller closes it. */
export function openDirVerified(
  root: string,
  path: string,
  options: { readonly create?: boolean } = {},
): Promise<VerifiedDir> {
  return VerifiedDir.open(root, expectedPath(root, path), options);
}

/**
 * Replaces the file at `path` atomically: a reader (or a crash) sees the old content or the new.
 * The temp file is created in the verified folder and renamed there, so a hard link elsewhere keeps
 * the old content; afterwards the folder must still be where it was checked and the name must hold
 * the inode that was written.
 */
export async function writeFileVerified(
  root: string,
  path: string,
  content: WriteContent,
  options: WriteOptions = {},
): Promise<void> {
  const target = expectedPath(root, path);
  if (target === root) throw new Error(`${target} is the project folder, not a file`);
  const name = basename(target);
  const dir = await VerifiedDir.open(root, dirname(target), {
    create: options.createParents !== false,
  });
  try {
    const existing = await dir.lstat(name);
    if (existing?.isDirectory()) throw new Error(`${target} is a folder, not a file`);
    const mode =
      options.mode ?? (existing?.isFile() ? Number(existing.mode & BigInt(0o7777)) : undefined);
    const temp = options.tempName ?? tempName(name);
    let written: BigIntStats;
    try {
      const file = await dir.create(temp, mode ?? 0o666);
      written = file.stats;
      try {
        if (typeof content === 'function') await content(file.handle);
        else await file.handle.writeFile(content);
        // open() applies the umask; chmod sets the exact mode the file had.
        if (mode !== undefined) await file.handle.chmod(mode);
        await file.handle.sync();
      } finally {
        await file.handle.close();
      }
      await dir.rename(temp, name);
    } catch (error) {
      // EEXIST: the name was someone else's file, not ours to delete.
      if (errno(error) !== 'EEXIST') await dir.unlink(temp).catch(() => undefined);
      throw error;
    }
    await dir.reverify();
    const now = await dir.lstat(name);
    if (!now || now.dev !== written.dev || now.ino !== written.ino) {
      throw new UnverifiedPathError(target, 'the file was replaced while it was being written');
    }
  } finally {
    await dir.close();
  }
}

/** Removes the file or symlink at `path` (never a folder); false when there was nothing. */
export async function removeFileVerified(root: string, path: string): Promise<boolean> {
  const target = expectedPath(root, path);
  const dir = await openParent(root, target);
  if (!dir) return false;
  try {
    await dir.unlink(basename(target));
    return true;
  } catch (error) {
    if (errno(error) === 'ENOENT') return false;
    throw error;
  } finally {
    await dir.close();
  }
}

/** Makes `path` a symlink to `target`, replacing a file or symlink there; parents are created. */
export async function symlinkVerified(root: string, path: string, target: string): Promise<void> {
  const at = expectedPath(root, path);
  const dir = await VerifiedDir.open(root, dirname(at), { create: true });
  try {
    await dir.unlink(basename(at)).catch((error: unknown) => {
      if (errno(error) !== 'ENOENT') throw error;
    });
    await dir.symlink(target, basename(at));
  } finally {
    await dir.close();
  }
}

/** Removes empty folders from `from` upwards; stops at the first that is not empty, or at `stopAt`. */
export async function removeEmptyFoldersVerified(
  root: string,
  from: string,
  stopAt: string,
): Promise<void> {
  let current = expectedPath(root, from);
  while (current !== stopAt && current !== root && isInside(stopAt, current)) {
    const parent = await openParent(root, current);
    if (!parent) return;
    try {
      await parent.rmdir(basename(current));
    } catch {
      return; // Not empty, gone, or not a folder: stop climbing.
    } finally {
      await parent.close();
    }
    current = dirname(current);
  }
}

/** `path` made absolute against root; refused unless it is plain (no `.`, `..`, `//`) and inside. */
function expectedPath(root: string, path: string): string {
  const absolute = isAbsolute(path) ? path : path === '.' ? root : join(root, path);
  const parts = isAbsolute(path) ? path.split('/').slice(1) : path.split('/');
  const plain =
    path === '/' || path === '.' || parts.every((p) => p !== '' && p !== '.' && p !== '..');
  if (path.includes('\0') || !plain || !isInside(root, absolute)) {
    throw new UnverifiedPathError(absolute, 'it is not a plain path inside');
  }
  return absolute;
}

/** The verified folder holding `path`, or undefined when it does not exist. */
async function openParent(root: string, path: string): Promise<VerifiedDir | undefined> {
  try {
    return await VerifiedDir.open(root, dirname(path));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function readOpened(file: VerifiedFile, options: ReadOptions): Promise<ReadOutcome> {
  try {
    const { stats } = file;
    if (stats.isDirectory()) return { kind: 'folder' };
    if (!stats.isFile()) return { kind: 'other' };
    const size = Number(stats.size);
    if (options.maxBytes !== undefined && size > options.maxBytes) {
      return { kind: 'too-large', size };
    }
    const bytes = await readAll(file, size, options.maxBytes ?? Number.MAX_SAFE_INTEGER);
    if (bytes === undefined) return { kind: 'too-large', size }; // It grew while being read.
    return { kind: 'file', bytes, mode: Number(stats.mode & BigInt(0o7777)) };
  } finally {
    await file.handle.close();
  }
}

/**
 * The whole file, expecting `size` bytes: usually one read (FileHandle.readFile would fstat again
 * and read to EOF separately). Undefined when it grew past `maxBytes`.
 */
async function readAll(
  file: VerifiedFile,
  size: number,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  let want = size + 1; // One byte more than expected shows EOF without a second read.
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(want, 1024 * 1024 * 64));
    const { bytesRead } = await file.handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
    // Exactly what fstat promised and a short read: that is EOF. Otherwise read on until 0.
    if (total === size && bytesRead < buffer.length) break;
    want = 64 * 1024;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

function isMissing(error: unknown): boolean {
  const code = errno(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** A temp name beside `name` that still fits the 255-byte name limit. */
function tempName(name: string): string {
  const suffix = `.tandem-${randomBytes(6).toString('hex')}.tmp`;
  return Buffer.byteLength(name) > 200 ? suffix : `.${name}${suffix}`;
}
