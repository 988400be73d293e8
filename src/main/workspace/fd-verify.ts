// Proves that an open file descriptor is the path that was judged (issue 9 item 5). A path is
// only a name: between the guard's check and the open, another process can swap a folder on the
// way for a symlink out of the project. The descriptor, once open, is the file itself, so we ask
// the kernel what it is instead of trusting the name.
//
// Linux ('proc'): readlink(/proc/self/fd/N) is the kernel's own path of the open file (d_path, no
// symlinks in it). It must equal the checked real path, and the dev/inode from fstat(N) must be
// what lstat of that path names now (that rules out a "(deleted)" suffix and a path string that
// means something else). Names inside a verified folder are reached as /proc/self/fd/N/name, so the
// kernel looks them up in that exact folder: openat(2) without needing it in Node.
//
// Elsewhere ('rewalk', e.g. macOS, which has no /proc): realpath(path) must equal the checked path
// and lstat(path) must give the fstat dev/inode. Residual risk: an attacker who swaps the folder
// out and back between our open and these two checks, twice and in the right order, is not seen;
// and names inside a verified folder are reached through its path, not its descriptor. The window
// is microseconds and the attacker needs write access inside the project; Linux has no such gap.
import type { BigIntStats } from 'node:fs';
import { existsSync, fstatSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { lstat, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { isInside } from './path-guard';

export type VerifyStrategy = 'proc' | 'rewalk';

/** How this process verifies descriptors; fixed at start (a missing /proc does not come back). */
export const verifyStrategy: VerifyStrategy =
  process.platform === 'linux' && existsSync('/proc/self/fd') ? 'proc' : 'rewalk';

/** The refusal every file operation raises when it cannot prove what it opened. */
export class UnverifiedPathError extends Error {
  override readonly name = 'UnverifiedPathError';
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(
      `could not verify that ${path} is the checked path inside the project (${why}); ` +
        'another program may be changing the folder',
    );
  }
}

/**
 * Throws UnverifiedPathError unless `handle` is the file or folder at `expected` (an absolute real
 * path) and `expected` is `root` or inside it.
 */
export async function verifyOpened(
  root: string,
  expected: string,
  handle: FileHandle,
  strategy: VerifyStrategy = verifyStrategy,
): Promise<BigIntStats> {
  if (!isInside(root, expected)) throw new UnverifiedPathError(expected, 'it is not inside');
  // The three questions are independent; asking them at once costs one round trip, not three.
  const [actual, opened, named] = await Promise.all([
    strategy === 'proc' ? procPath(expected, handle) : rewalk(expected),
    handle.stat({ bigint: true }),
    lstat(expected, { bigint: true }).catch(() => undefined),
  ]);
  return judge(expected, actual, opened, named);
}

/**
 * verifyOpened for a descriptor number, with synchronous calls: for the scan worker, whose walk
 * is synchronous (a promise per system call would cost more than the call).
 */
export function verifyOpenedSync(
  root: string,
  expected: string,
  fd: number,
  strategy: VerifyStrategy = verifyStrategy,
): BigIntStats {
  if (!isInside(root, expected)) throw new UnverifiedPathError(expected, 'it is not inside');
  const actual = strategy === 'proc' ? procPathSync(expected, fd) : rewalkSync(expected);
  const opened = fstatSync(fd, { bigint: true });
  return judge(expected, actual, opened, lstatOrUndefined(expected));
}

function lstatOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The verdict both forms share: the kernel's path is the checked one and names this inode. */
function judge(
  expected: string,
  actual: string,
  opened: BigIntStats,
  named: BigIntStats | undefined,
): BigIntStats {
  if (actual !== expected) {
    throw new UnverifiedPathError(expected, 'the opened file is somewhere else');
  }
  if (!named || named.dev !== opened.dev || named.ino !== opened.ino) {
    throw new UnverifiedPathError(expected, 'the opened file is not the one at that path');
  }
  return opened;
}

/** A path naming `name` inside the open folder `dir` (whose verified real path is `dirPath`). */
export function nameInDir(
  dir: { readonly fd: number },
  dirPath: string,
  name: string,
  strategy: VerifyStrategy = verifyStrategy,
): string {
  if (name === '' || name === '.' || name === '..' || /[/\0]/.test(name)) {
    throw new UnverifiedPathError(`${dirPath}/${name}`, 'not a single file name');
  }
  if (strategy === 'proc') return `/proc/self/fd/${dir.fd}/${name}`;
  return dirPath === '/' ? `/${name}` : `${dirPath}/${name}`;
}

async function procPath(expected: string, handle: FileHandle): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch (error) {
    throw new UnverifiedPathError(expected, `/proc gave no path: ${(error as Error).message}`);
  }
}

async function rewalk(expected: string): Promise<string> {
  try {
    return await realpath(expected);
  } catch (error) {
    throw new UnverifiedPathError(expected, `it cannot be resolved: ${(error as Error).message}`);
  }
}

function procPathSync(expected: string, fd: number): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch (error) {
    throw new UnverifiedPathError(expected, `/proc gave no path: ${(error as Error).message}`);
  }
}

function rewalkSync(expected: string): string {
  try {
    return realpathSync.native(expected);
  } catch (error) {
    throw new UnverifiedPathError(expected, `it cannot be resolved: ${(error as Error).message}`);
  }
}
