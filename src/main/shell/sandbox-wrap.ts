// Prepares one call's sandbox from the probed state: the argv wrapper and any environment it
// needs, and afterwards undoes what the sandbox could not prevent.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SandboxState } from '../../shared/tool-types';
import {
  BWRAP_ISOLATION_ARGS,
  bwrapArgv,
  findGitEntries,
  sandboxExecArgv,
  sandboxExecProfile,
} from './sandbox-launcher';
import type { GitEntry, SandboxPlan } from './sandbox-launcher';

export interface PreparedSandbox {
  readonly wrap?: (argv: readonly string[]) => readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Everything the command starts dies with it, by the kernel (see `PtyRunOptions.contained`). */
  readonly contained: boolean;
  /** Cleans up after the command; returns notes for the person and the model (may be none). */
  finish(): Promise<readonly string[]>;
}

/**
 * Files git reads settings from that a command running git may not create: a bind mount can only
 * make an existing path read-only, and .git itself must stay writable for git. (commondir would
 * point git at settings the command wrote, whose core.fsmonitor then runs outside the sandbox.)
 */
export const GIT_FILES_NOT_TO_CREATE: readonly string[] = [
  'config',
  'commondir',
  'config.worktree',
];

/** Suffix of a file moved aside because the command created it where git would read it. */
export const BLOCKED_SUFFIX = '.blocked-by-tandem';

/**
 * A repository without .git/hooks gets an empty one (what `git init` makes), so it can be bound
 * read-only; otherwise a command could create hooks that run later outside the sandbox.
 */
async function protectMissingHooks(gitFolders: readonly string[]): Promise<void> {
  for (const gitDir of gitFolders) await mkdir(path.join(gitDir, 'hooks'), { recursive: true });
}

/** Watches the git folders for settings files the command creates, and moves them aside. */
function watchNewGitFiles(gitFolders: readonly string[]): () => Promise<string[]> {
  const absent = gitFolders
    .flatMap((gitDir) => GIT_FILES_NOT_TO_CREATE.map((name) => path.join(gitDir, name)))
    .filter((p) => !existsSync(p));
  return async () => {
    const notes: string[] = [];
    for (const p of absent) {
      if (!existsSync(p)) continue;
      const aside = `${p}${BLOCKED_SUFFIX}`;
      try {
        await rm(aside, { recursive: true, force: true });
        await rename(p, aside);
        notes.push(
          `The command created ${p}, which git would read settings from; it was moved to ${aside}.`,
        );
      } catch (error) {
        notes.push(
          `The command created ${p}, which git would read settings from, and it could not be moved aside (${String(error)}): remove it before using git here.`,
        );
      }
    }
    return notes;
  };
}

const NOTHING = async (): Promise<readonly string[]> => [];

/**
 * bwrap makes its init the parent of everything in a fresh pid namespace and ties that init's
 * life to bwrap's own: when the leader exits, the kernel kills whatever the command left running.
 */
const BWRAP_CONTAINS =
  BWRAP_ISOLATION_ARGS.includes('--unshare-pid') &&
  BWRAP_ISOLATION_ARGS.includes('--die-with-parent');

export async function prepareSandbox(
  state: SandboxState,
  given: SandboxPlan,
): Promise<PreparedSandbox> {
  // A home folder that does not exist has nothing to hide (and bwrap cannot mount over it).
  const plan = { ...given, home: given.home && existsSync(given.home) ? given.home : '' };
  switch (state.kind) {
    case 'bwrap': {
      if (!state.available) break;
      // A read-only project binds no .git entries (everything below it is read-only already), so
      // the scan, which lists every folder two levels down, is skipped for it.
      const entries: readonly GitEntry[] =
        plan.access.kind === 'read-only' ? [] : findGitEntries(plan.folder).entries;
      const writableGit =
        plan.access.kind === 'read-write' && plan.access.git === 'protected'
          ? entries.filter((entry) => entry.kind === 'folder').map((entry) => entry.path)
          : [];
      await protectMissingHooks(writableGit);
      return {
        wrap: (argv) => bwrapArgv(plan, argv, entries),
        env: {},
        contained: BWRAP_CONTAINS,
        finish: watchNewGitFiles(writableGit),
      };
    }
    case 'sandbox-exec': {
      if (!state.available) break;
      const tmpDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-cmd-'));
      // The profile denies the protected paths whether they exist or not: nothing to undo.
      const profile = sandboxExecProfile({ ...plan, tmpDir });
      return {
        wrap: (argv) => sandboxExecArgv(profile, argv),
        env: { TMPDIR: tmpDir },
        contained: false,
        finish: async () => {
          await rm(tmpDir, { recursive: true, force: true });
          return [];
        },
      };
    }
    case 'none':
      break;
  }
  return { env: {}, contained: false, finish: NOTHING };
}
