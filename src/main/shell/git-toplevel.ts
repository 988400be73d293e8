// Where the git repository of a folder lives. When the project folder is only part of a larger
// repository, git's read commands reach past it (`git show HEAD:../secret`, `git log -p`), so
// they ask; so do commands run (`git -C DIR`, `cd DIR && git …`) where a gitfile or a worktree
// leads to a repository outside the project (`nested/.git` holding `gitdir: /elsewhere/.git`).
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

import { isInside } from '../workspace/path-guard';
import { linkedObject } from './git-object-links';

export type GitRepo =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'found';
      readonly top: string;
      readonly gitDir: string;
      readonly commonDir: string;
    }
  | { readonly kind: 'unknown'; readonly why: string };

const TIMEOUT_MS = 5000;

/**
 * One answer per folder, replaced when the folder's stamp changes. Keyed by folder rather than
 * folder + stamp so the map does not grow with every git command (each one touches .git).
 */
class StampedCache<T> {
  private readonly entries = new Map<
    string,
    { readonly stamp: string; readonly value: Promise<T> }
  >();

  get(key: string, stamp: string, make: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry?.stamp === stamp) return entry.value;
    const value = make();
    this.entries.set(key, { stamp, value });
    return value;
  }

  /** Not remembered: the next command tries again. */
  forget(key: string, value: Promise<T>): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }
}

const repositories = new StampedCache<GitRepo>();

// A clean environment: GIT_DIR or GIT_WORK_TREE from this process must not move the answer.
function cleanEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', LC_ALL: 'C' };
}

function find(dir: string): Promise<GitRepo> {
  // A folder that does not exist has no repository, and no command can run in it either.
  if (!existsSync(dir)) return Promise.resolve({ kind: 'none' });
  const env = cleanEnv();
  const args = [
    'rev-parse',
    '--path-format=absolute',
    '--show-toplevel',
    '--absolute-git-dir',
    '--git-common-dir',
  ];
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd: dir, env, timeout: TIMEOUT_MS, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || /not a git repository/.test(stderr)) resolve({ kind: 'none' });
          else resolve({ kind: 'unknown', why: stderr.trim() || error.message });
          return;
        }
        const [top, gitDir, commonDir] = stdout.split('\n');
        if (!top || !gitDir || !commonDir) {
          resolve({ kind: 'unknown', why: `unexpected git rev-parse output: ${stdout.trim()}` });
          return;
        }
        resolve({ kind: 'found', top, gitDir, commonDir });
      },
    );
  });
}

/** Changes when `DIR/.git` appears, goes or is rewritten, so a new gitfile is seen. */
function stamp(dir: string): string {
  try {
    return String(lstatSync(path.join(dir, '.git')).mtimeMs);
  } catch {
    return '-';
  }
}

export function gitRepository(dir: string): Promise<GitRepo> {
  return repositories.get(dir, stamp(dir), () => {
    const made = find(dir);
    // A failure (a timeout, say) is not remembered: the next command tries again.
    void made.then((repo) => {
      if (repo.kind === 'unknown') repositories.forget(dir, made);
    });
    return made;
  });
}

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** Whether `file`, symlinks resolved, is `root` or inside it. */
function inside(root: string, file: string): boolean {
  return isInside(root, real(file));
}

/**
 * Settings in a repository's own config (its local and worktree files, with their includes) that
 * make read commands run a program: filter drivers (checkout, status, diff), diff drivers and
 * textconv, gpg (log --show-signature), fsmonitor (status) and the pager. Keys are matched in
 * git's canonical lower case.
 */
const RUNS_PROGRAMS =
  '^(filter\\..*\\.(clean|smudge|process)|diff\\..*\\.(textconv|command)|diff\\.external|' +
  'gpg\\..*program|core\\.fsmonitor|core\\.pager|pager\\..*)$';
/**
 * Includes: the files they name (often inside the work tree, where an edit needs no approval in
 * auto-edit mode) are not part of the config's stamp, so a repository that has any is read anew
 * for every command rather than from the cache.
 */
const INCLUDES = '^(include\\.path|includeif\\..*\\.path)$';
/** Config scopes a repository controls (include.path inside them reports as these too). */
const REPOSITORY_SCOPES: ReadonlySet<string> = new Set(['local', 'worktree']);
const programs = new StampedCache<string | undefined>();

/** `git config --show-scope -z --get-regexp` output: scope NUL key LF value NUL, repeated. */
export function repositorySettings(output: string): { key: string; value: string }[] {
  const fields = output.split('\0');
  const found: { key: string; value: string }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const entry = fields[i + 1] ?? '';
    const cut = entry.indexOf('\n');
    const key = cut < 0 ? entry : entry.slice(0, cut);
    const value = cut < 0 ? '' : entry.slice(cut + 1);
    if (REPOSITORY_SCOPES.has(fields[i] ?? '') && key) found.push({ key, value });
  }
  return found;
}

function configStamp(gitDir: string, commonDir: string): string {
  return [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')]
    .map((file) => {
      try {
        const stat = lstatSync(file);
        return `${stat.mtimeMs}:${stat.size}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}

/** The keys (`filter.x.smudge`) of program-running settings the repository sets, if any. */
function configuredPrograms(
  dir: string,
  repo: { gitDir: string; commonDir: string },
): Promise<string | undefined> {
  return programs.get(`${dir}\0${repo.gitDir}`, configStamp(repo.gitDir, repo.commonDir), () => {
    const made = new Promise<string | undefined>((resolve) => {
      execFile(
        'git',
        ['config', '--show-scope', '-z', '--get-regexp', `${RUNS_PROGRAMS}|${INCLUDES}`],
        { cwd: dir, env: cleanEnv(), timeout: TIMEOUT_MS, encoding: 'utf8' },
        (error, stdout) => {
          // Exit code 1 means nothing matched; anything else is unknown, so it asks.
          const code = error ? (error as { code?: unknown }).code : 0;
          if (error && code !== 1) {
            programs.forget(`${dir}\0${repo.gitDir}`, made); // the next command tries again
            resolve(`could not read the repository config: ${error.message}`);
            return;
          }
          const settings = repositorySettings(stdout);
          const includes = new RegExp(INCLUDES);
          if (settings.some(({ key }) => includes.test(key))) {
            programs.forget(`${dir}\0${repo.gitDir}`, made);
          }
          const keys = settings
            .filter(({ key }) => !includes.test(key))
            // `core.fsmonitor true` is git's own daemon, not a program (and it is switched off).
            .filter(
              ({ key, value }) => !(key === 'core.fsmonitor' && /^(?:true|false)$/i.test(value)),
            )
            .map(({ key }) => key);
          resolve([...new Set(keys)].join(', ') || undefined);
        },
      );
    });
    return made;
  });
}

/**
 * Where a repository's object store reaches outside the project, if it does: the objects folder
 * itself (a symlink), its packs or loose objects (symlinks), or `info/alternates`, whose folders git reads every
 * object of as its own (`git cat-file --batch-all-objects --batch` prints another repository).
 * Alternates of alternates are followed; anything that cannot be read asks.
 */
function objectsOutside(
  root: string,
  objects: string,
  seen = new Set<string>(),
): string | undefined {
  if (!inside(root, objects)) return objects;
  const key = real(objects);
  if (seen.has(key)) return undefined;
  seen.add(key);
  const linked = linkedObject(objects);
  if (linked) return linked;
  try {
    for (const entry of readdirSync(path.join(objects, 'pack'), { withFileTypes: true })) {
      if (entry.isSymbolicLink()) return path.join(objects, 'pack', entry.name);
    }
  } catch {
    // no pack folder: nothing to borrow there
  }
  let list: string;
  try {
    list = readFileSync(path.join(objects, 'info', 'alternates'), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : `${objects}/info/alternates`;
  }
  for (const line of list.split('\n')) {
    const entry = line.trim();
    if (entry === '' || entry.startsWith('#')) continue;
    // git unquotes a line that starts with `"`; such a line asks rather than be unquoted here.
    if (entry.startsWith('"')) return entry;
    const outside = objectsOutside(root, path.resolve(objects, entry), seen);
    if (outside) return outside;
  }
  return undefined;
}

/**
 * Why git read commands run in `dirs` (the project folder, folders a `cd` reached, `-C`
 * targets) ask, if they do: the folder's repository must start at the folder, and every
 * repository used must live inside it.
 */
export async function gitScopeReason(
  folder: string,
  dirs: readonly string[] = [folder],
): Promise<string | undefined> {
  const root = real(folder);
  for (const dir of new Set([folder, ...dirs])) {
    const repo = await gitRepository(dir);
    if (repo.kind === 'none') continue;
    if (repo.kind === 'unknown') {
      return `could not find where the git repository of ${dir} starts: ${repo.why}`;
    }
    if (dir === folder && real(repo.top) !== root) {
      return `the git repository (${repo.top}) is larger than the project folder`;
    }
    const away = [repo.top, repo.gitDir, repo.commonDir].find((file) => !inside(root, file));
    if (away) return `git would use a repository outside the project: ${away}`;
    const borrowed = objectsOutside(root, path.join(repo.commonDir, 'objects'));
    if (borrowed) return `git would read objects from outside the project: ${borrowed}`;
    const programs = await configuredPrograms(dir, repo);
    if (programs) return `the repository's config runs programs (${programs})`;
  }
  return nestedRepositoryReason(folder);
}

/** Paths (relative to `dir`) of the gitlinks in the index of the repository at `dir`. */
const gitlinks = new StampedCache<string[] | string>();

function indexStamp(gitDir: string): string {
  try {
    const stat = lstatSync(path.join(gitDir, 'index'));
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return '-';
  }
}

function submodulePaths(dir: string, gitDir: string): Promise<string[] | string> {
  return gitlinks.get(`${dir}\0${gitDir}`, indexStamp(gitDir), () => {
    const made = new Promise<string[] | string>((resolve) => {
      execFile(
        'git',
        ['ls-files', '-z', '--stage'],
        { cwd: dir, env: cleanEnv(), timeout: TIMEOUT_MS, encoding: 'utf8', maxBuffer: 256 << 20 },
        (error, stdout) => {
          if (error) {
            gitlinks.forget(`${dir}\0${gitDir}`, made);
            resolve(`could not list the submodules of ${dir}: ${error.message}`);
            return;
          }
          // "MODE SHA STAGE\tPATH", NUL-separated; 160000 is a gitlink (a submodule).
          resolve(
            stdout
              .split('\0')
              .filter((entry) => entry.startsWith('160000 '))
              .map((entry) => entry.slice(entry.indexOf('\t') + 1)),
          );
        },
      );
    });
    return made;
  });
}

/** Submodules are entered by git's read commands (status, diff --submodule): at most this deep. */
const MAX_SUBMODULE_DEPTH = 16;

/**
 * Submodules at any depth (git enters them from the top: status looks into them, diff
 * --submodule=diff runs their diff drivers) whose config runs programs make git read commands
 * ask. A repository the index does not link is not entered by git from the top; git run inside
 * it (`git -C`, `cd`) is judged by its own folder above.
 */
async function nestedRepositoryReason(folder: string): Promise<string | undefined> {
  const root = real(folder);
  const queue: { dir: string; depth: number }[] = [{ dir: folder, depth: 0 }];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const { dir, depth } = queue.shift() as { dir: string; depth: number };
    const repo = await gitRepository(dir);
    const shown = path.relative(folder, dir) || '.';
    if (repo.kind === 'none') continue;
    if (repo.kind === 'unknown')
      return `could not read the nested repository ${shown}: ${repo.why}`;
    if (seen.has(repo.gitDir)) continue;
    seen.add(repo.gitDir);
    if (dir !== folder) {
      if (!inside(root, repo.gitDir))
        return `git would use a repository outside the project: ${repo.gitDir}`;
      const programs = await configuredPrograms(dir, repo);
      if (programs) return `a nested repository's config runs programs (${shown}: ${programs})`;
    }
    const links = await submodulePaths(dir, repo.gitDir);
    if (typeof links === 'string') return links;
    if (links.length > 0 && depth >= MAX_SUBMODULE_DEPTH) {
      return `submodules nest deeper than ${MAX_SUBMODULE_DEPTH} levels`;
    }
    for (const link of links) {
      const sub = path.join(dir, link);
      // Only a checked-out submodule has a repository git could enter.
      if (existsSync(path.join(sub, '.git'))) queue.push({ dir: sub, depth: depth + 1 });
    }
  }
  return undefined;
}
