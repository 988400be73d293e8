// Where the git repository of a folder lives. When the project folder is only part of a larger
// repository, git's read commands reach past it (`git show HEAD:../secret`, `git log -p`), so
// they ask; so do commands run (`git -C DIR`, `cd DIR && git …`) where a gitfile or a worktree
// leads to a repository outside the project (`nested/.git` holding `gitdir: /elsewhere/.git`).
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

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

function inside(root: string, file: string): boolean {
  const relative = path.relative(root, real(file));
  return !(relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

/**
 * Settings in the repository's own config that make read commands run a program: filter
 * drivers (checkout, status, diff), diff drivers and textconv, gpg (log --show-signature),
 * fsmonitor (status) and the pager. Keys are matched in git's canonical lower case.
 */
const RUNS_PROGRAMS =
  '^(filter\\..*\\.(clean|smudge|process)|diff\\..*\\.(textconv|command)|diff\\.external|' +
  'gpg\\..*program|core\\.fsmonitor|core\\.pager|pager\\..*)$';
const programs = new StampedCache<string | undefined>();

/** The keys (`filter.x.smudge`) of program-running settings in the repository config, if any. */
function configuredPrograms(dir: string, commonDir: string): Promise<string | undefined> {
  let stamp = '-';
  try {
    const stat = lstatSync(path.join(commonDir, 'config'));
    stamp = `${stat.mtimeMs}:${stat.size}`;
  } catch {
    // no config file: git reads nothing either
  }
  return programs.get(commonDir, stamp, () => {
    const made = new Promise<string | undefined>((resolve) => {
      execFile(
        'git',
        ['config', '--local', '--includes', '--get-regexp', RUNS_PROGRAMS],
        { cwd: dir, env: cleanEnv(), timeout: TIMEOUT_MS, encoding: 'utf8' },
        (error, stdout) => {
          // Exit code 1 means nothing matched; anything else is unknown, so it asks.
          const code = error ? (error as { code?: unknown }).code : 0;
          if (code === 1) resolve(undefined);
          else if (error) {
            programs.forget(commonDir, made); // not remembered: the next command tries again
            resolve(`could not read the repository config: ${error.message}`);
          } else {
            const keys = stdout
              .split('\n')
              // `core.fsmonitor true` is git's own daemon, not a program.
              .filter((line) => !/^core\.fsmonitor (?:true|false)$/i.test(line))
              .map((line) => line.split(' ')[0] ?? '');
            resolve(keys.filter((name) => name !== '').join(', ') || undefined);
          }
        },
      );
    });
    return made;
  });
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
    const programs = await configuredPrograms(dir, repo.commonDir);
    if (programs) return `the repository's config runs programs (${programs})`;
  }
  return undefined;
}
