// Finds the diff programs (diff.external, diff.<driver>.command) that repositories in the project
// set in their own config. git runs them on `git diff`, `git log -p` or `git show`, and no setting
// turns them off without breaking those commands, so a command run without asking gets each one
// overridden by a refusal (see GitMode in command-env). The person's own (global) ones stay.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { commandEnv } from './command-env';
import { repositorySettings } from './git-toplevel';
import { findGitEntries } from './sandbox-launcher';

const DIFF_PROGRAM_KEYS = '^diff\\.(external|.+\\.command)$';
function keysIn(dir: string, env: Record<string, string>): Promise<string[]> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['config', '--show-scope', '-z', '--get-regexp', DIFF_PROGRAM_KEYS],
      { cwd: dir, env, timeout: 5_000 },
      // Exit 1 (none set) or 128 (no repository) leave stdout empty: nothing to refuse.
      (_error, stdout) => resolve(repositorySettings(stdout).map(({ key }) => key)),
    );
  });
}

/**
 * Diff-program keys set by the repository the folder is in and by those below it (the same ones
 * the sandbox protects). No git installed means no keys.
 */
export async function repositoryDiffPrograms(
  folder: string,
  base: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const env = commandEnv(base);
  const scan = findGitEntries(folder);
  const dirs = new Set([
    folder,
    ...[...scan.entries.map((entry) => entry.path), ...scan.links].map((p) => path.dirname(p)),
  ]);
  const found = await Promise.all([...dirs].map((dir) => keysIn(dir, env)));
  return [...new Set(found.flat())];
}
