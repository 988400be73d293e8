// Walks the project like git sees it: `.gitignore` files (nested ones too) are honoured, `.git`
// is never entered, and symlinks are reported but never followed (they could lead outside). Every
// folder is opened and verified before it is listed, so a folder swapped for a symlink during the
// walk is skipped, not listed.
import type { Dirent } from 'node:fs';
import { join, relative as relativePath, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { openDirVerified, readFileVerified } from '../../workspace/verified-fs';

export interface WalkEntry {
  /** Relative to the project folder, with `/` separators. */
  readonly relative: string;
  readonly absolute: string;
  readonly type: 'file' | 'dir' | 'symlink';
}

interface IgnoreLevel {
  /** Folder of the .gitignore, relative to the project ('' for the root). */
  readonly base: string;
  readonly rules: Ignore;
}

export interface WalkOptions {
  readonly signal?: AbortSignal;
  /** Stop after visiting this many entries (a guard for enormous trees). */
  readonly maxEntries?: number;
}

const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** Every entry under `start` that git would not ignore; `folder` and `start` are real paths. */
export async function* walkProject(
  folder: string,
  start: string,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const startRel = toPosix(relativePath(folder, start));
  const levels: IgnoreLevel[] = [];
  // The .gitignore files of the folders above `start` apply too.
  const parts = startRel ? startRel.split('/') : [];
  for (let i = 0; i < parts.length; i += 1) {
    const base = parts.slice(0, i).join('/');
    const level = await loadLevel(folder, base);
    if (level) levels.push(level);
  }
  let visited = 0;
  const stack: { rel: string; levels: IgnoreLevel[] }[] = [{ rel: startRel, levels }];
  while (stack.length > 0) {
    const { rel, levels: inherited } = stack.pop() as { rel: string; levels: IgnoreLevel[] };
    if (options.signal?.aborted) return;
    const own = await loadLevel(folder, rel);
    const active = own ? [...inherited, own] : inherited;
    const dirents = await listVerified(folder, join(folder, rel));
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const dirent of dirents) {
      if (dirent.name === '.git') continue;
      const childRel = rel ? `${rel}/${dirent.name}` : dirent.name;
      const type = dirent.isSymbolicLink() ? 'symlink' : dirent.isDirectory() ? 'dir' : 'file';
      if (isIgnored(active, childRel, type === 'dir')) continue;
      visited += 1;
      if (options.maxEntries !== undefined && visited > options.maxEntries) return;
      yield { relative: childRel, absolute: join(folder, childRel), type };
      if (type === 'dir') subdirs.push(childRel);
    }
    // Reverse so the stack pops folders in name order.
    for (const sub of subdirs.reverse()) stack.push({ rel: sub, levels: active });
  }
}

/** The entries of a folder, or none when it is gone, unreadable or could not be verified. */
async function listVerified(folder: string, path: string): Promise<Dirent[]> {
  try {
    const dir = await openDirVerified(folder, path);
    try {
      return await dir.list();
    } finally {
      await dir.close();
    }
  } catch {
    return [];
  }
}

async function loadLevel(folder: string, base: string): Promise<IgnoreLevel | undefined> {
  const read = await readFileVerified(folder, join(folder, base, '.gitignore'), {
    maxBytes: MAX_GITIGNORE_BYTES,
  }).catch(() => undefined);
  if (read?.kind !== 'file') return undefined;
  return { base, rules: ignore().add(read.bytes.toString('utf8')) };
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
