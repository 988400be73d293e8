// Walks the project like git sees it: `.gitignore` files (nested ones too) are honoured, `.git`
// is never entered, symlinks are reported but never followed (they could lead outside), and
// FIFOs, sockets and devices are reported as `special` so nobody opens them. Synchronous: it runs
// in the scan worker, off the main thread. Folders that cannot be read are recorded, not hidden.
import { readdirSync, type Dirent } from 'node:fs';
import { join, relative as relativePath, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readSmallFileSync } from './regular-file-open';

export type EntryType = 'file' | 'dir' | 'symlink' | 'special';

export interface WalkEntry {
  /** Relative to the project folder, with `/` separators. */
  readonly relative: string;
  readonly absolute: string;
  readonly type: EntryType;
}

/** What the walk could not see, or saw although git would not; reported with the results. */
export interface WalkProblems {
  /** The first few folders that could not be read, with the error code. */
  readonly unreadable: { relative: string; code: string }[];
  unreadableCount: number;
  /** The walk started in a folder that .gitignore ignores (walked because it was asked for). */
  ignoredStart: boolean;
}

interface IgnoreLevel {
  /** Folder of the .gitignore, relative to the project ('' for the root). */
  readonly base: string;
  readonly rules: Ignore;
}

const MAX_NAMED_PROBLEMS = 10;
const MAX_GITIGNORE_BYTES = 1024 * 1024;

export function newWalkProblems(): WalkProblems {
  return { unreadable: [], unreadableCount: 0, ignoredStart: false };
}

/** Yields every entry under `start` (a real path inside `folder`) that git would not ignore. */
export function* walkProject(
  folder: string,
  start: string,
  problems: WalkProblems,
): Generator<WalkEntry> {
  const startRel = toPosix(relativePath(folder, start));
  let levels: IgnoreLevel[] = [];
  // The .gitignore files of the folders above `start` apply too, unless they ignore `start`
  // itself: a folder asked for by name is walked (and the caller says it is ignored).
  const parts = startRel ? startRel.split('/') : [];
  for (let i = 0; i < parts.length; i += 1) {
    const level = loadLevel(folder, parts.slice(0, i).join('/'));
    if (level) levels.push(level);
    if (levels.length > 0 && isIgnored(levels, parts.slice(0, i + 1).join('/'), true)) {
      problems.ignoredStart = true;
      levels = [];
    }
  }
  const stack: { rel: string; levels: IgnoreLevel[] }[] = [{ rel: startRel, levels }];
  while (stack.length > 0) {
    const { rel, levels: inherited } = stack.pop() as { rel: string; levels: IgnoreLevel[] };
    const dirents = readFolder(folder, rel, problems);
    if (!dirents) continue;
    const own = dirents.some((d) => d.name === '.gitignore') ? loadLevel(folder, rel) : undefined;
    const active = own ? [...inherited, own] : inherited;
    const subdirs: string[] = [];
    for (const dirent of dirents) {
      if (dirent.name === '.git') continue;
      const childRel = rel ? `${rel}/${dirent.name}` : dirent.name;
      const type = typeOf(dirent);
      if (active.length > 0 && isIgnored(active, childRel, type === 'dir')) continue;
      yield { relative: childRel, absolute: `${folder}/${childRel}`, type };
      if (type === 'dir') subdirs.push(childRel);
    }
    // Reverse so the stack pops folders in name order.
    for (const sub of subdirs.reverse()) stack.push({ rel: sub, levels: active });
  }
}

function readFolder(folder: string, rel: string, problems: WalkProblems): Dirent[] | undefined {
  try {
    const dirents = readdirSync(rel ? `${folder}/${rel}` : folder, { withFileTypes: true });
    return dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    problems.unreadableCount += 1;
    if (problems.unreadable.length < MAX_NAMED_PROBLEMS) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      problems.unreadable.push({ relative: rel || '.', code });
    }
    return undefined;
  }
}

function typeOf(dirent: Dirent): EntryType {
  if (dirent.isFile()) return 'file';
  if (dirent.isDirectory()) return 'dir';
  if (dirent.isSymbolicLink()) return 'symlink';
  return 'special'; // FIFO, socket, block or character device
}

function loadLevel(folder: string, base: string): IgnoreLevel | undefined {
  const bytes = readSmallFileSync(join(folder, base, '.gitignore'), MAX_GITIGNORE_BYTES);
  if (bytes === undefined) return undefined;
  return { base, rules: ignore().add(bytes.toString('utf8')) };
}

function isIgnored(levels: readonly IgnoreLevel[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const local = level.base ? rel.slice(level.base.length + 1) : rel;
    let result: { ignored: boolean; unignored: boolean };
    try {
      result = level.rules.test(isDir ? `${local}/` : local);
    } catch {
      continue; // Names like "..." are not valid for the ignore package; nothing can match them.
    }
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
