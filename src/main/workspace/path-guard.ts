// The one gate every file path goes through (DESIGN.md §4). It walks the requested path the way
// the OS does (component by component, following symlinks, `..` applied to the real parent), so
// `link/../x` means what the kernel would make of it, then requires the result to be the folder
// or inside it by path components.
import { lstat, readlink, realpath } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute, relative as relativePath, sep } from 'node:path';

export type GuardResult =
  | {
      ok: true;
      /** Real path of the project folder. */
      root: string;
      /** Absolute real path, or the would-be real path for a file that does not exist yet. */
      path: string;
      /** Relative to the folder, '.' for the folder itself. */
      relative: string;
    }
  | { ok: false; reason: string };

const MAX_SYMLINKS = 40;
const MAX_PATH_LENGTH = 4096;
const MAX_NAME_BYTES = 255;

export interface GuardOptions {
  /**
   * Real paths of Tandem's own data folders (settings, approvals, transcripts, undo history). A
   * path that resolves to one of them or into one is refused for reads and writes alike, even
   * inside the project: what no tool may touch is decided here, once, for every tool.
   */
  readonly untouchable?: readonly string[];
}

/**
 * Resolves `requested` against `folder` and checks it stays inside. `~` is not expanded (it is an
 * ordinary name). A write follows a final symlink only when its target is inside too, so a
 * dangling link pointing out can never create a file outside.
 */
export async function guardPath(
  folder: string,
  requested: string,
  access: 'read' | 'write',
  options: GuardOptions = {},
): Promise<GuardResult> {
  if (requested.includes('\0')) return refuse('the path contains a NUL byte');
  if (requested.length > MAX_PATH_LENGTH) {
    return refuse(`the path is ${requested.length} characters long (limit ${MAX_PATH_LENGTH})`);
  }
  let root: string;
  try {
    root = await realpath(folder);
  } catch {
    return refuse(`the project folder ${folder} does not exist`);
  }
  const tooLong = requested.split(/[\\/]/).find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES);
  if (tooLong !== undefined) {
    return refuse(`a name in the path is longer than ${MAX_NAME_BYTES} bytes`);
  }

  // Any error while resolving (ENAMETOOLONG, ELOOP, EACCES, a link swapped mid-walk) is a refusal,
  // never "not outside": the guard only says yes to a path it resolved completely.
  const walked = await walk(isAbsolute(requested) ? '/' : root, requested || '.').catch(
    (error: unknown) => refuse(`cannot resolve ${shown(requested)}: ${(error as Error).message}`),
  );
  if (!walked.ok) return walked;
  const resolved = walked.path;
  if (!isInside(root, resolved)) {
    return refuse(`${shown(requested)} resolves to ${resolved}, outside the project folder`);
  }
  const data = (options.untouchable ?? []).find((dir) => isInside(dir, resolved));
  if (data !== undefined) return refuse(untouchableReason(requested, data));
  if (walked.stats) {
    const kind = specialKind(walked.stats);
    if (kind) return refuse(`${shown(requested)} is a ${kind}; only files and folders are allowed`);
  }
  void access; // Reads and writes share one rule; the policy decides what a write needs.
  return { ok: true, root, path: resolved, relative: relativePath(root, resolved) || '.' };
}

/** Why a path in Tandem's own data folder is refused: the model reads it and can say so. */
export function untouchableReason(requested: string, dataFolder: string): string {
  return (
    `${shown(requested)} is in Tandem's own data folder (${dataFolder}), where its settings, ` +
    'approvals, transcripts and undo history live; no tool reads or changes anything there'
  );
}

/** True when a path relative to the folder is inside a `.git` folder (writes there always ask). */
export function isInsideGitDir(relative: string): boolean {
  return relative.split(/[\\/]+/).some((part) => part.toLowerCase() === '.git');
}

/** Component-wise containment: `/a/proj-evil` is not inside `/a/proj`. */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return candidate.startsWith(prefix);
}

type Walked = { ok: true; path: string; stats: Stats | undefined } | { ok: false; reason: string };

/** Like realpath(3), but a missing tail is kept as the would-be path instead of failing. */
async function walk(start: string, requested: string): Promise<Walked> {
  let current = start;
  let stats: Stats | undefined;
  const queue = requested.split('/');
  let links = 0;
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      current = parentOf(current);
      stats = undefined;
      continue;
    }
    const next = current === '/' ? `/${name}` : `${current}/${name}`;
    try {
      stats = await lstat(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // Not there (yet): later names are taken as written; `..` can still walk back out.
        current = next;
        stats = undefined;
        continue;
      }
      if (code === 'ENOTDIR') return refuse(`${current} is a file, not a folder`);
      if (code === 'ENAMETOOLONG') return refuse('the path is too long');
      return refuse(`cannot inspect ${next}: ${(error as Error).message}`);
    }
    if (stats.isSymbolicLink()) {
      links += 1;
      if (links > MAX_SYMLINKS) return refuse('too many levels of symbolic links (a loop?)');
      const target = await readlink(next).catch((error: unknown) => {
        throw new Error(`cannot read the link ${next}: ${(error as Error).message}`);
      });
      if (isAbsolute(target)) current = '/';
      queue.unshift(...target.split('/'));
      stats = undefined;
      continue;
    }
    current = next;
  }
  if (stats === undefined) {
    // After `..` or a link: inspect the result itself. Only "not there" may pass as new.
    stats = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }
  return { ok: true, path: current, stats };
}

function parentOf(path: string): string {
  if (path === '/') return '/';
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

function specialKind(stats: Stats): string | undefined {
  if (stats.isFIFO()) return 'FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  return undefined;
}

function shown(requested: string): string {
  return requested === '' ? '(empty path)' : requested;
}

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
