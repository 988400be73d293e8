// Prepares one call's sandbox from the probed state: the argv wrapper and any environment it needs.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SandboxState } from '../../shared/tool-types';
import { bwrapArgv, sandboxExecArgv, sandboxExecProfile } from './sandbox-launcher';
import type { SandboxPlan } from './sandbox-launcher';

export interface PreparedSandbox {
  readonly wrap?: (argv: readonly string[]) => readonly string[];
  readonly env: Readonly<Record<string, string>>;
  dispose(): Promise<void>;
}

/**
 * A repository without .git/hooks gets an empty one (what `git init` makes), so it can be bound
 * read-only; otherwise a command could create hooks that run later outside the sandbox.
 */
async function protectMissingHooks(folder: string): Promise<void> {
  const gitDir = path.join(folder, '.git');
  try {
    if ((await stat(gitDir)).isDirectory())
      await mkdir(path.join(gitDir, 'hooks'), { recursive: true });
  } catch {
    // No .git folder: nothing to protect.
  }
}

export async function prepareSandbox(
  state: SandboxState,
  given: SandboxPlan,
): Promise<PreparedSandbox> {
  // A home folder that does not exist has nothing to hide (and bwrap cannot mount over it).
  const plan = { ...given, home: given.home && existsSync(given.home) ? given.home : '' };
  switch (state.kind) {
    case 'bwrap':
      if (!state.available) break;
      await protectMissingHooks(plan.folder);
      return { wrap: (argv) => bwrapArgv(plan, argv), env: {}, dispose: async () => {} };
    case 'sandbox-exec': {
      if (!state.available) break;
      const tmpDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-cmd-'));
      const profile = sandboxExecProfile({ ...plan, tmpDir });
      return {
        wrap: (argv) => sandboxExecArgv(profile, argv),
        env: { TMPDIR: tmpDir },
        dispose: () => rm(tmpDir, { recursive: true, force: true }),
      };
    }
    case 'none':
      break;
  }
  return { env: {}, dispose: async () => {} };
}
