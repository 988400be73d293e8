// What one path looked like at a moment: absent, a file (content kept in the object store), or a
// symlink (recorded as a link, never followed). The journal compares and restores these. Every
// look at the project and every write, delete and symlink goes through verified-fs.ts (open, then
// verify the descriptor), so undo never reads or writes through a folder that is, or becomes while
// it works, a symlink (issue 9 item 5, issue 11 item 1). `root` is the project's real path.
import type { BigIntStats } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import type { ObjectStore } from './object-store';
import { errno } from './verified-dir';
import {
  openDirVerified,
  removeEmptyFoldersVerified,
  removeFileVerified,
  symlinkVerified,
  UnverifiedPathError,
  writeFileVerified,
  type VerifiedDir,
} from './verified-fs';

export type FileImage =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly sha256: string; readonly size: number; readonly mode: number }
  | { readonly kind: 'symlink'; readonly target: string }
  /** Written by older versions for files they did not keep: shown, never restored. */
  | { readonly kind: 'too-large'; readonly size: number }
  /** A folder or special file: nothing undo writes. */
  | { readonly kind: 'other' };

/** The current state of `abs`, or why it cannot be looked at safely. */
export type CurrentImage =
  | { readonly ok: true; readonly image: FileImage; readonly stats?: BigIntStats }
  | { readonly ok: false; readonly reason: string };

const ABSENT: CurrentImage = { ok: true, image: { kind: 'absent' } };

/** Looks at `abs` now; with `keep`, a file's content is stored so it can be restored later. */
export async function captureImage(
  root: string,
  abs: string,
  store: ObjectStore,
  keep: boolean,
): Promise<CurrentImage> {
  if (abs === root) return { ok: true, image: { kind: 'other' } };
  try {
    return await inParent(root, abs, async (dir, name) => {
      const stats = dir && (await dir.lstat(name));
      if (!dir || !stats) return ABSENT;
      if (stats.isSymbolicLink()) {
        return { ok: true, image: { kind: 'symlink', target: await dir.readlink(name) } };
      }
      if (!stats.isFile()) return { ok: true, image: { kind: 'other' } };
      const file = await dir.openForRead(name).catch((error: unknown) => {
        if (errno(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (!file) return changedWhileRead(root, abs);
      try {
        const stored = await store.putOpened(file.handle.fd, keep);
        if (!stored) return changedWhileRead(root, abs);
        const image: FileImage = {
          kind: 'file',
          sha256: stored.sha256,
          size: stored.size,
          mode: Number(file.stats.mode & 0o7777n),
        };
        return { ok: true, stats: file.stats, image };
      } finally {
        await file.handle.close();
      }
    });
  } catch (error) {
    if (error instanceof UnverifiedPathError)
      return { ok: false, reason: unreachable(root, error) };
    throw error;
  }
}

/**
 * Whether `abs` is still the file looked at as `seen` (same inode, size, times and mode): a check
 * that needs no second read of a big file.
 */
export async function unchangedSince(
  root: string,
  abs: string,
  seen: BigIntStats,
): Promise<boolean> {
  try {
    const now = await inParent(root, abs, async (dir, name) => dir && (await dir.lstat(name)));
    return (
      now !== undefined &&
      now.isFile() &&
      now.dev === seen.dev &&
      now.ino === seen.ino &&
      now.size === seen.size &&
      now.mtimeNs === seen.mtimeNs &&
      now.ctimeNs === seen.ctimeNs &&
      now.mode === seen.mode
    );
  } catch {
    return false; // Not reachable safely: the caller looks again (and says why).
  }
}

export function sameImage(a: FileImage, b: FileImage): boolean {
  switch (a.kind) {
    case 'absent':
    case 'other':
      return b.kind === a.kind;
    case 'file':
      return b.kind === 'file' && b.sha256 === a.sha256 && b.mode === a.mode;
    case 'symlink':
      return b.kind === 'symlink' && b.target === a.target;
    case 'too-large':
      return false;
  }
}

/**
 * Puts `image` back at `abs` (inside `root`). A file that did not exist is deleted, and folders
 * created for it are removed up to `keepDir` when empty. A file is streamed from the store into a
 * temp file (named `options.temp` when the journal announced one) in the verified folder and
 * renamed over the name, so a symlink there is replaced, not followed. Throws UnverifiedPathError
 * when a folder on the way is a symlink or moved.
 */
export async function restoreImage(
  root: string,
  abs: string,
  image: FileImage,
  store: ObjectStore,
  keepDir?: string,
  options: { readonly temp?: string | undefined } = {},
): Promise<'restored' | 'deleted'> {
  switch (image.kind) {
    case 'absent':
      await removeFileVerified(root, abs);
      if (keepDir) await removeEmptyFoldersVerified(root, dirname(abs), keepDir);
      return 'deleted';
    case 'file':
      await writeFileVerified(
        root,
        abs,
        async (file) => {
          if (image.size > 0) await store.copyOut(image.sha256, file.fd);
        },
        {
          mode: image.mode,
          ...(options.temp !== undefined ? { tempName: basename(options.temp) } : {}),
        },
      );
      return 'restored';
    case 'symlink':
      await symlinkVerified(root, abs, image.target);
      return 'restored';
    case 'too-large':
      throw new Error(`${abs} was too large (${image.size} bytes) to keep a copy`);
    case 'other':
      throw new Error(`${abs} was not a regular file`);
  }
}

/**
 * Deletes a temp file the journal named, if it is still there and still a plain file, reached
 * through a verified folder; a name that cannot be verified (or is outside) is left alone.
 */
export async function removeTempFile(root: string, path: string): Promise<void> {
  try {
    await inParent(root, path, async (dir, name) => {
      if ((await dir?.lstat(name))?.isFile()) await dir?.unlink(name);
    });
  } catch (error) {
    if (error instanceof UnverifiedPathError || errno(error) === 'ENOENT') return;
    throw error;
  }
}

/** Why undo cannot reach a path, in words: which folder could not be verified, and that it stops. */
export function unreachable(root: string, error: UnverifiedPathError): string {
  const name = relativeName(root, error.path);
  const what = error.why.startsWith('it ')
    ? `${name} ${error.why.slice(3)}`
    : `${name}: ${error.why}`;
  return `${what}, and undo reads and writes only through folders it has verified`;
}

/** For messages: the path as the person knows it. */
export function relativeName(root: string, abs: string): string {
  return relative(root, abs) || '.';
}

/**
 * Runs `work` with the verified folder holding `abs` (undefined when that folder does not exist)
 * and the final name; closes the folder after.
 */
async function inParent<T>(
  root: string,
  abs: string,
  work: (dir: VerifiedDir | undefined, name: string) => Promise<T>,
): Promise<T> {
  let dir: VerifiedDir | undefined;
  try {
    dir = await openDirVerified(root, dirname(abs));
  } catch (error) {
    const code = errno(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  try {
    return await work(dir, basename(abs));
  } finally {
    await dir?.close();
  }
}

function changedWhileRead(root: string, abs: string): CurrentImage {
  return { ok: false, reason: `${relativeName(root, abs)} changed while it was being read` };
}
