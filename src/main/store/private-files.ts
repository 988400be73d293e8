// Tandem's data folder holds copies of project files, transcripts and rules: it is the person's
// alone (issue 11 item 4). Folders are 0700 and files 0600 whatever the umask (a umask can only
// clear bits, but a strange one could clear the owner's too, so modes are set, not hoped for),
// and data written by an older version is tightened when it is opened.
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
} from 'node:fs';
import { chmod, lstat, readdir, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** mkdir -p with 0700 on every folder it creates. */
export function ensurePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  // Everything from `first` down to `dir` was created just now.
  for (let at = dir; ; at = dirname(at)) {
    chmodSync(at, PRIVATE_DIR_MODE);
    if (at === first || at === dirname(at)) break;
  }
}

/** Opens (creating when missing) a file for the data folder; a file it creates is 0600. */
export function openPrivateFile(path: string, flags: string | number): number {
  ensurePrivateDir(dirname(path));
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, PRIVATE_FILE_MODE);
  return fd;
}

/** Creates a file the way `openPrivateFile` does and closes it (for a rename target's temp). */
export function touchPrivateFile(path: string): void {
  closeSync(openPrivateFile(path, 'a'));
}

let tempCounter = 0;

/** Writes a data-folder file beside itself and renames it into place, 0600 whatever the umask. */
export async function writePrivateFileAtomic(
  file: string,
  content: string | Uint8Array,
): Promise<void> {
  ensurePrivateDir(dirname(file));
  const temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
  await writeFile(temp, content, { mode: PRIVATE_FILE_MODE });
  await chmod(temp, PRIVATE_FILE_MODE);
  await rename(temp, file);
}

/**
 * Tightens the data folder itself and what lies directly in it (settings, keys). Refuses folders
 * that are plainly not Tandem's own (the root, the home folder, a sticky shared folder like /tmp),
 * which a mistyped TANDEM_HOME could name.
 */
export function tightenDataRoot(dataDir: string): void {
  const stats = lstatSync(dataDir, { throwIfNoEntry: false });
  if (!stats?.isDirectory() || (stats.mode & 0o1000) !== 0) return;
  if (dataDir === '/' || dataDir === homedir()) return;
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) return;
  tightenPrivateDirSync(dataDir);
  const projects = join(dataDir, 'projects');
  if (lstatSync(projects, { throwIfNoEntry: false })?.isDirectory())
    tightenPrivateDirSync(projects);
}

/**
 * Removes group and other access below `root` (folders become 0700, files lose group/other bits).
 * Symlinks are left alone and never followed. Errors on single entries are skipped: tightening is
 * best effort and must not stop a project from opening.
 */
export async function tightenPrivateTree(root: string): Promise<number> {
  let changed = 0;
  const visit = async (path: string): Promise<void> => {
    const stats = await lstat(path).catch(() => undefined);
    if (!stats || stats.isSymbolicLink()) return;
    if (stats.isDirectory()) {
      if ((stats.mode & 0o777) !== PRIVATE_DIR_MODE) {
        await chmod(path, PRIVATE_DIR_MODE).catch(() => undefined);
        changed += 1;
      }
      const names = await readdir(path).catch(() => [] as string[]);
      for (const name of names) await visit(join(path, name));
    } else if ((stats.mode & 0o077) !== 0) {
      await chmod(path, stats.mode & 0o700).catch(() => undefined);
      changed += 1;
    }
  };
  await visit(root);
  return changed;
}

/** The synchronous form, for the few folders opened synchronously (no recursion into children). */
export function tightenPrivateDirSync(dir: string): void {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  if (!stats || !stats.isDirectory()) return;
  if ((stats.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(dir, entry.name);
    const mode = lstatSync(file).mode;
    if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700);
  }
}
