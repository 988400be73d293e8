// An open, verified folder of the project, and single names inside it. Everything the file tools
// touch below a folder is reached through one of these, so a folder swapped for a symlink after the
// check cannot redirect the work (see fd-verify.ts for how a descriptor is verified).
import { constants, type BigIntStats, type Dirent } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  rename,
  rmdir,
  symlink,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { nameInDir, UnverifiedPathError, verifyOpened, verifyStrategy } from './fd-verify';
import { isInside } from './path-guard';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } =
  constants;
/** A folder, never through a final symlink. */
export const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Reading: no final symlink, and a FIFO swapped in cannot block the open. */
export const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
/** A new file that did not exist: never an existing file, never through a symlink. */
const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY;

/** A file opened and verified; the caller closes `handle`. */
export interface VerifiedFile {
  readonly handle: FileHandle;
  readonly stats: BigIntStats;
  /** Its real path. */
  readonly path: string;
}

export class VerifiedDir {
  private constructor(
    readonly root: string,
    /** Real path of this folder (root or inside it). */
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Opens the folder at `path`, an absolute real path that is `root` or inside it. With `create`,
   * missing folders are made one at a time, each inside a parent that was verified first.
   */
  static async open(
    root: string,
    path: string,
    options: { readonly create?: boolean } = {},
  ): Promise<VerifiedDir> {
    if (!isInside(root, path)) throw new UnverifiedPathError(path, 'it is not inside');
    let handle: FileHandle;
    try {
      handle = await openDir(path, path);
    } catch (error) {
      if (errno(error) !== 'ENOENT' || !options.create || path === root) throw error;
      const parent = await VerifiedDir.open(root, dirname(path), options);
      try {
        return await parent.makeDir(basename(path));
      } finally {
        await parent.close();
      }
    }
    return VerifiedDir.adopt(root, path, handle);
  }

  private static async adopt(root: string, path: string, handle: FileHandle): Promise<VerifiedDir> {
    try {
      await verifyOpened(root, path, handle);
      return new VerifiedDir(root, path, handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The real path `name` has in this folder. */
  pathOf(name: string): string {
    return this.path === '/' ? `/${name}` : `${this.path}/${name}`;
  }

  /** Checks again that this folder is still where it was verified (it may have been renamed). */
  async reverify(): Promise<void> {
    await verifyOpened(this.root, this.path, this.handle);
  }

  async list(): Promise<Dirent[]> {
    const self = verifyStrategy === 'proc' ? `/proc/self/fd/${this.handle.fd}` : this.path;
    const entries = await readdir(self, { withFileTypes: true });
    if (verifyStrategy !== 'proc') await this.reverify();
    return entries;
  }

  /** lstat of `name` (a symlink is not followed); undefined when there is nothing by that name. */
  async lstat(name: string): Promise<BigIntStats | undefined> {
    return lstat(this.at(name), { bigint: true }).catch((error: unknown) => {
      if (errno(error) === 'ENOENT') return undefined;
      throw error;
    });
  }

  readlink(name: string): Promise<string> {
    return readlink(this.at(name));
  }

  /** Opens `name` for reading (a file, or a folder to be described); never follows a symlink. */
  async openForRead(name: string): Promise<VerifiedFile> {
    const handle = await openNoFollow(this.pathOf(name), this.at(name), READ_FLAGS);
    return this.verifiedFile(name, handle);
  }

  /** Creates `name`, which must not exist, for writing. */
  async create(name: string, mode: number): Promise<VerifiedFile> {
    const handle = await open(this.at(name), CREATE_FLAGS, mode);
    return this.verifiedFile(name, handle);
  }

  /** The subfolder `name`, verified. */
  async child(name: string): Promise<VerifiedDir> {
    const handle = await openDir(this.pathOf(name), this.at(name));
    return VerifiedDir.adopt(this.root, this.pathOf(name), handle);
  }

  /** The subfolder `name`, made here first when missing. */
  async makeDir(name: string): Promise<VerifiedDir> {
    await mkdir(this.at(name)).catch((error: unknown) => {
      if (errno(error) !== 'EEXIST') throw error;
    });
    return this.child(name);
  }

  async rename(from: string, to: string): Promise<void> {
    await rename(this.at(from), this.at(to));
  }

  async unlink(name: string): Promise<void> {
    await unlink(this.at(name));
  }

  async rmdir(name: string): Promise<void> {
    await rmdir(this.at(name));
  }

  async symlink(target: string, name: string): Promise<void> {
    await symlink(target, this.at(name));
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** A path the kernel looks up in this very folder (see nameInDir). */
  private at(name: string): string {
    return nameInDir(this.handle, this.path, name);
  }

  private async verifiedFile(name: string, handle: FileHandle): Promise<VerifiedFile> {
    const path = this.pathOf(name);
    try {
      return { handle, stats: await verifyOpened(this.root, path, handle), path };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}

/** Opens `path` (a real path inside `root`) for reading, following nothing, and verifies it. */
export async function openForReadVerified(root: string, path: string): Promise<VerifiedFile> {
  if (!isInside(root, path)) throw new UnverifiedPathError(path, 'it is not inside');
  const handle = await openNoFollow(path, path, READ_FLAGS);
  try {
    return { handle, stats: await verifyOpened(root, path, handle), path };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A final symlink where the checked real path had none means the name was swapped: refuse. */
async function openNoFollow(path: string, via: string, flags: number): Promise<FileHandle> {
  try {
    return await open(via, flags);
  } catch (error) {
    if (errno(error) === 'ELOOP') throw new UnverifiedPathError(path, 'it is a symlink now');
    throw error;
  }
}

/** O_DIRECTORY|O_NOFOLLOW gives ENOTDIR for a final symlink; the checked path had none: refuse. */
async function openDir(path: string, via: string): Promise<FileHandle> {
  try {
    return await open(via, DIR_FLAGS);
  } catch (error) {
    if (errno(error) !== 'ENOTDIR') throw error;
    const stats = await lstat(via).catch(() => undefined);
    if (stats?.isSymbolicLink()) throw new UnverifiedPathError(path, 'it is a symlink now');
    throw error;
  }
}

export function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
