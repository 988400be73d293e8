// Where the git repository of a project folder starts. When the folder is only part of a larger
// repository, git's read commands reach past it (`git show HEAD:../secret`, `git log -p`), so
// they ask. Found once per folder for the life of the process.
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';

export type GitTop =
  | { readonly kind: 'none' }
  | { readonly kind: 'same' }
  | { readonly kind: 'larger'; readonly top: string }
  | { readonly kind: 'unknown'; readonly why: string };

const TIMEOUT_MS = 5000;
const cache = new Map<string, Promise<GitTop>>();

function find(folder: string): Promise<GitTop> {
  // A folder that does not exist has no repository, and no command can run in it either.
  if (!existsSync(folder)) return Promise.resolve({ kind: 'none' });
  // A clean environment: GIT_DIR or GIT_WORK_TREE from this process must not move the answer.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/',
    LC_ALL: 'C',
  };
  return new Promise((resolve) => {
    execFile(
      'git',
      ['rev-parse', '--show-toplevel'],
      { cwd: folder, env, timeout: TIMEOUT_MS, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || /not a git repository/.test(stderr)) resolve({ kind: 'none' });
          else resolve({ kind: 'unknown', why: stderr.trim() || error.message });
          return;
        }
        const top = stdout.trim();
        try {
          resolve(
            realpathSync(top) === realpathSync(folder) ? { kind: 'same' } : { kind: 'larger', top },
          );
        } catch (caught) {
          resolve({ kind: 'unknown', why: String(caught) });
        }
      },
    );
  });
}

export function gitTopLevel(folder: string): Promise<GitTop> {
  let found = cache.get(folder);
  if (!found) {
    found = find(folder);
    cache.set(folder, found);
    // A failure (a timeout, say) is not remembered: the next command tries again.
    void found.then((top) => {
      if (top.kind === 'unknown') cache.delete(folder);
    });
  }
  return found;
}

/** Why git read commands in this folder ask, if they do. */
export async function gitScopeReason(folder: string): Promise<string | undefined> {
  const top = await gitTopLevel(folder);
  switch (top.kind) {
    case 'none':
    case 'same':
      return undefined;
    case 'larger':
      return `the git repository (${top.top}) is larger than the project folder`;
    case 'unknown':
      return `could not find where the git repository of the project folder starts: ${top.why}`;
  }
}
