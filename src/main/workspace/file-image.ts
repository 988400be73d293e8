// What one path looked like at a moment: absent, a file (content kept in the object store), or a
// symlink (recorded as a link, never followed). The journal compares and restores these; every
// look at the disk and every write goes through the confined path checks, so undo never reads or
// writes through a folder that became a symlink.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  openSync,
  fsyncSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { ConfinementError, CREATE_NEW_FILE, confinedLstat, confinedParent } from './confined-path';
import { writeAll, type ObjectStore } from './object-store';

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
  | { readonly ok: true; readonly image: FileImage; readonly stats?: Stats }
  | { readonly ok: false; readonly reason: string };

/** Looks at `abs` now; with `keep`, a file's content is stored so it can be restored later. */
export async function captureImage(
  root: string,
  abs: string,
  store: ObjectStore,
  keep: boolean,
): Promise<CurrentImage> {
  let stats;
  try {
    stats = confinedLstat(root, abs);
  } catch (error) {
    if (error instanceof ConfinementError) return { ok: false, reason: error.message };
    throw error;
  }
  if (!stats) return { ok: true, image: { kind: 'absent' } };
  if (stats.isSymbolicLink())
    return { ok: true, image: { kind: 'symlink', target: readlinkSync(abs) } };
  if (!stats.isFile()) return { ok: true, image: { kind: 'other' } };
  const stored = await store.putFile(abs, keep);
  if (!stored) return { ok: false, reason: `${abs} changed while it was being read` };
  return {
    ok: true,
    stats: stored.stats,
    image: {
      kind: 'file',
      sha256: stored.sha256,
      size: stored.size,
      mode: stored.stats.mode & 0o7777,
    },
  };
}

/**
 * Whether `abs` is still the file looked at as `seen` (same inode, size, times and mode): a check
 * that needs no second read of a big file.
 */
export function unchangedSince(root: string, abs: string, seen: Stats): boolean {
  let now: Stats | undefined;
  try {
    now = confinedLstat(root, abs);
  } catch {
    return false;
  }
  return (
    now !== undefined &&
    now.isFile() &&
    now.ino === seen.ino &&
    now.size === seen.size &&
    now.mtimeMs === seen.mtimeMs &&
    now.ctimeMs === seen.ctimeMs &&
    now.mode === seen.mode
  );
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
 * created for it are removed up to `keepDir` when empty. Throws ConfinementError (with the reason)
 * when a folder on the way is a symlink or not a folder.
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
    case 'absent': {
      const parent = confinedParent(root, abs, false);
      if (parent !== undefined) {
        try {
          unlinkSync(abs); // Removes the entry itself; a symlink is not followed.
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        if (keepDir) removeEmptyParents(root, dirname(abs), keepDir);
      }
      return 'deleted';
    }
    case 'file': {
      const parent = confinedParent(root, abs, true) as string;
      // The temp sits in the checked folder (a name the journal announced, when it gave one).
      const temp = join(
        parent,
        basename(options.temp ?? `.${basename(abs)}.tandem-${randomBytes(6).toString('hex')}.tmp`),
      );
      const fd = openSync(temp, CREATE_NEW_FILE, 0o600);
      try {
        try {
          if (image.size > 0) await store.copyOut(image.sha256, fd);
          fchmodSync(fd, image.mode);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(temp, abs); // Replaces the entry (a symlink there is replaced, not followed).
      } catch (error) {
        try {
          unlinkSync(temp);
        } catch {
          // Already gone.
        }
        throw error;
      }
      return 'restored';
    }
    case 'symlink': {
      confinedParent(root, abs, true);
      try {
        unlinkSync(abs);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      symlinkSync(image.target, abs);
      return 'restored';
    }
    case 'too-large':
      throw new Error(`${abs} was too large (${image.size} bytes) to keep a copy`);
    case 'other':
      throw new Error(`${abs} was not a regular file`);
  }
}

/** Writes bytes to a new file in a checked folder (tests and the journal's own writes use it). */
export function writeNewFile(path: string, content: Uint8Array, mode: number): void {
  const fd = openSync(path, CREATE_NEW_FILE, mode);
  try {
    writeAll(fd, content);
  } finally {
    closeSync(fd);
  }
}

function removeEmptyParents(root: string, dir: string, keepDir: string): void {
  let current = dir;
  while (current.startsWith(keepDir + '/') && current !== keepDir) {
    try {
      // Checked again at each level: the folder must still be a real one inside the project.
      if (confinedParent(root, join(current, 'x'), false) === undefined) return;
      rmdirSync(current);
    } catch {
      return; // Not empty, gone, or not a real folder: stop climbing.
    }
    current = dirname(current);
  }
}

/** For messages: the path as the person knows it. */
export function relativeName(root: string, abs: string): string {
  return relative(root, abs) || '.';
}
