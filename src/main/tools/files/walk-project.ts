// Walks the project like git sees it: `.gitignore` files (nested ones too) are honoured, `.git`
// is never entered, symlinks are reported but never followed (they could lead outside), and
// FIFOs, sockets and devices are reported as `special` so nobody opens them. Synchronous: it runs
// in the scan worker, off the main thread. Folders that cannot be read are recorded, not hidden.
// Every folder is opened and verified (verified-dir-sync.ts) before it is listed, and the entries
// it yields are opened through that folder, so a folder swapped for a symlink out of the project
// during the walk is named as not verified, never listed or read.
import type { Dirent } from 'node:fs';
import { relative as relativePath, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { VerifiedDirSync } from '../../workspace/verified-dir-sync';
import { failureCode, readSmallFileSync } from './regular-file-open';

export type EntryType = 'file' | 'dir' | 'symlink' | 'special';

export interface WalkEntry {
  /** Relative to the project folder, with `/` separators. */
  readonly relative: string;
  readonly type: EntryType;
  /** The verified folder that holds the entry, open until the walk moves on: open `name` here. */
  readonly dir: VerifiedDirSync;
  readonly name: string;
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

/**
 * Yields every entry under `start` that git would not ignore; `folder` (the project) and `start`
 * (inside it) are real paths. An entry's `dir` is closed when the generator resumes past its
 * folder or is closed itself (a `for … of` that breaks closes it).
 */
export function* walkProject(
  folder: string,
  start: string,
  problems: WalkProblems,
  /** Real paths never entered nor reported (Tandem's own data folders). */
  skip: readonly string[] = [],
): Generator<WalkEntry> {
  const startRel = toPosix(relativePath(folder, start));
  let levels: IgnoreLevel[] = [];
  // The .gitignore files of the folders above `start` apply too, unless they ignore `start`
  // itself: a folder asked for by name is walked (and the caller says it is ignored).
  const parts = startRel ? startRel.split('/') : [];
  for (let i = 0; i < parts.length; i += 1) {
    const level = loadAncestorLevel(folder, parts.slice(0, i).join('/'));
    if (level) levels.push(level);
    if (levels.length > 0 && isIgnored(levels, parts.slice(0, i + 1).join('/'), true)) {
      problems.ignoredStart = true;
      levels = [];
    }
  }
  const stack: { rel: string; levels: IgnoreLevel[] }[] = [{ rel: startRel, levels }];
  while (stack.length > 0) {
    const { rel, levels: inherited } = stack.pop() as { rel: string; levels: IgnoreLevel[] };
    const opened = openFolder(folder, rel, problems);
    if (!opened) continue;
    const { dir, dirents } = opened;
    const subdirs: string[] = [];
    try {
      const own = dirents.some((d) => d.name === '.gitignore') ? loadLevel(dir, rel) : undefined;
      const active = own ? [...inherited, own] : inherited;
      for (const dirent of dirents) {
        if (dirent.name === '.git') continue;
        const childRel = rel ? `${rel}/${dirent.name}` : dirent.name;
        if (skip.includes(`${folder}/${childRel}`)) continue;
        const type = typeOf(dirent);
        if (active.length > 0 && isIgnored(active, childRel, type === 'dir')) continue;
        yield { relative: childRel, type, dir, name: dirent.name };
        if (type === 'dir') subdirs.push(childRel);
      }
      // Reverse so the stack pops folders in name order.
      for (const sub of subdirs.reverse()) stack.push({ rel: sub, levels: active });
    } finally {
      dir.close();
    }
  }
}

/** The folder, verified, and its entries in name order; undefined (and recorded) if unreadable. */
function openFolder(
  folder: string,
  rel: string,
  problems: WalkProblems,
): { dir: VerifiedDirSync; dirents: Dirent[] } | undefined {
  let dir: VerifiedDirSync | undefined;
  try {
    dir = VerifiedDirSync.open(folder, rel ? `${folder}/${rel}` : folder);
    const dirents = dir.list();
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { dir, dirents };
  } catch (error) {
    dir?.close();
    problems.unreadableCount += 1;
    if (problems.unreadable.length < MAX_NAMED_PROBLEMS) {
      problems.unreadable.push({ relative: rel || '.', code: failureCode(error) });
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

function loadLevel(dir: VerifiedDirSync, base: string): IgnoreLevel | undefined {
  const bytes = readSmallFileSync(dir, '.gitignore', MAX_GITIGNORE_BYTES);
  if (bytes === undefined) return undefined;
  return { base, rules: ignore().add(bytes.toString('utf8')) };
}

/** The .gitignore of a folder above the start; none when that folder cannot be verified. */
function loadAncestorLevel(folder: string, base: string): IgnoreLevel | undefined {
  let dir: VerifiedDirSync;
  try {
    dir = VerifiedDirSync.open(folder, base ? `${folder}/${base}` : folder);
  } catch {
    return undefined;
  }
  try {
    return loadLevel(dir, base);
  } finally {
    dir.close();
  }
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
