// Revert writes on the host, after commands that ran in the sandbox may have swapped a folder for a
// symlink (issue 11 item 1: `rm -rf sub; ln -s /outside sub`, then undo of the first). So every
// write, delete and mkdir that undo does goes through here: the path is walked one component at a
// time from the project folder, each component must be a real folder (lstat, never followed), and
// the final open never follows a symlink. This is the one place to swap for the shared verified-open
// module (open, then check the descriptor through /proc/self/fd) when it lands.
import { constants, lstatSync, mkdirSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/** A path undo must not write through, with the reason in words. */
export class ConfinementError extends Error {
  override readonly name = 'ConfinementError';
}

/** Flags for creating a file inside a checked folder: never through a symlink, never an existing file. */
export const CREATE_NEW_FILE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** `abs` relative to `root`, split; refuses anything outside `root`. */
export function componentsOf(root: string, abs: string): string[] {
  const rel = relative(root, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new ConfinementError(`${abs} is not inside the project folder`);
  }
  return rel.split(sep);
}

/**
 * Checks (and with `create`, makes) the folders leading to `abs`, one component at a time.
 * Returns the verified parent folder, or undefined when a folder is missing and `create` is off.
 */
export function confinedParent(root: string, abs: string, create: boolean): string | undefined {
  const parts = componentsOf(root, abs);
  let at = root;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    let stats = lstatSync(at, { throwIfNoEntry: false });
    if (!stats) {
      if (!create) return undefined;
      mkdirSync(at); // Not recursive: one checked component at a time.
      stats = lstatSync(at);
    }
    if (stats.isSymbolicLink()) {
      throw new ConfinementError(
        `${relative(root, at)} is a symbolic link now, and undo does not write through links`,
      );
    }
    if (!stats.isDirectory()) {
      throw new ConfinementError(`${relative(root, at)} is not a folder now`);
    }
  }
  return at;
}

/** lstat of `abs` through checked folders: undefined when it (or a folder above it) is absent. */
export function confinedLstat(root: string, abs: string): Stats | undefined {
  const parent = confinedParent(root, abs, false);
  if (parent === undefined) return undefined;
  return lstatSync(abs, { throwIfNoEntry: false });
}
