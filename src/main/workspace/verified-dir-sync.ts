// verified-dir.ts for the scan worker (search, find_files, big read_file windows): the same
// open-then-verify, with synchronous calls, because the worker's walk is synchronous and opens
// thousands of files per call (a promise per system call would cost more than the call).
//
// A folder is verified once, when it is opened. With /proc, the files in it are reached through
// its descriptor (/proc/self/fd/N/name, O_NOFOLLOW) and need no check of their own: the kernel
// looks the single name up in that very folder and refuses a final symlink, so what opens is an
// entry of the verified folder whatever happens to the paths meanwhile; fstat then says what it
// is. Without /proc the name is a path again, so each file is verified as the folder was.
import { closeSync, fstatSync, lstatSync, openSync, readdirSync } from 'node:fs';
import type { BigIntStats, Dirent } from 'node:fs';
import {
  nameInDir,
  UnverifiedPathError,
  verifyOpenedSync,
  verifyStrategy,
  type VerifyStrategy,
} from './fd-verify';
import { isInside } from './path-guard';
import { DIR_FLAGS, errno, READ_FLAGS } from './verified-dir';

/** A file open for reading; the caller closes `fd` with closeSync. */
export interface OpenedFileSync {
  readonly fd: number;
  readonly stats: BigIntStats;
}

export class VerifiedDirSync {
  private constructor(
    readonly root: string,
    /** Real path of this folder (root or inside it). */
    readonly path: string,
    private readonly fd: number,
    private readonly strategy: VerifyStrategy,
  ) {}

  /** Opens and verifies the folder at `path`, an absolute real path that is `root` or inside it. */
  static open(root: string, path: string, strategy = verifyStrategy): VerifiedDirSync {
    if (!isInside(root, path)) throw new UnverifiedPathError(path, 'it is not inside');
    let fd: number;
    try {
      fd = openSync(path, DIR_FLAGS);
    } catch (error) {
      // O_DIRECTORY|O_NOFOLLOW gives ENOTDIR for a final symlink; the checked path had none.
      if (errno(error) === 'ENOTDIR' && isSymlink(path)) {
        throw new UnverifiedPathError(path, 'it is a symlink now');
      }
      throw error;
    }
    try {
      verifyOpenedSync(root, path, fd, strategy);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return new VerifiedDirSync(root, path, fd, strategy);
  }

  /** The real path `name` has in this folder. */
  pathOf(name: string): string {
    return this.path === '/' ? `/${name}` : `${this.path}/${name}`;
  }

  list(): Dirent[] {
    if (this.strategy === 'proc') {
      return readdirSync(`/proc/self/fd/${this.fd}`, { withFileTypes: true });
    }
    const entries = readdirSync(this.path, { withFileTypes: true });
    verifyOpenedSync(this.root, this.path, this.fd, this.strategy);
    return entries;
  }

  /**
   * Opens `name` for reading: never through a final symlink (ELOOP), never blocking on a FIFO.
   * Any kind of file opens; `stats` says which, so the caller reads only regular files.
   */
  openForRead(name: string): OpenedFileSync {
    const fd = openSync(nameInDir({ fd: this.fd }, this.path, name, this.strategy), READ_FLAGS);
    try {
      const stats =
        this.strategy === 'proc'
          ? fstatSync(fd, { bigint: true })
          : verifyOpenedSync(this.root, this.pathOf(name), fd, this.strategy);
      return { fd, stats };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Opens the file at `path` (a real path inside `root`) by its path and verifies it. */
export function openForReadVerifiedSync(
  root: string,
  path: string,
  strategy = verifyStrategy,
): OpenedFileSync {
  if (!isInside(root, path)) throw new UnverifiedPathError(path, 'it is not inside');
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if (errno(error) === 'ELOOP') throw new UnverifiedPathError(path, 'it is a symlink now');
    throw error;
  }
  try {
    return { fd, stats: verifyOpenedSync(root, path, fd, strategy) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
