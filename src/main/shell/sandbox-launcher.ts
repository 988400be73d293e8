// Builds the OS sandbox around a command: bubblewrap on Linux, sandbox-exec on macOS. Same intent
// on both: the system read-only, the project folder read-write (its .git/hooks and .git/config
// read-only, since code written there would run later outside the sandbox), a private /tmp, the
// home folder hidden apart from the project, network off unless the person allowed it.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export interface SandboxPlan {
  /** Real path of the project folder. */
  readonly folder: string;
  /** The person's home folder, hidden from the command; '' for none. */
  readonly home: string;
  readonly allowNetwork: boolean;
}

/** Paths inside the project that stay read-only. Only existing ones are bound. */
/** The system read-only, fresh /dev and /proc, a private /tmp: every sandboxed command starts so. */
export const BWRAP_BASE_ARGS: readonly string[] = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
];

export function protectedPaths(folder: string): string[] {
  return [path.join(folder, '.git', 'hooks'), path.join(folder, '.git', 'config')].filter((p) =>
    existsSync(p),
  );
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The bwrap argv prefix; append the command's own argv. No `--new-session`: the pty is the
 * command's own (nothing outside reads it, so TIOCSTI cannot reach the person's terminal), and
 * keeping it as the controlling terminal lets Ctrl-C and job control work for the person.
 */
export function bwrapArgv(plan: SandboxPlan, command: readonly string[]): string[] {
  const argv = ['bwrap', ...BWRAP_BASE_ARGS];
  // Hide the home folder (unless it is the system root or the project itself).
  if (
    plan.home &&
    plan.home !== '/' &&
    !isInside(plan.home, '/tmp') &&
    !isInside(plan.folder, plan.home)
  ) {
    argv.push('--tmpfs', plan.home);
  }
  // Bound after the tmpfs mounts so a project under /tmp or the home folder stays visible.
  argv.push('--bind', plan.folder, plan.folder);
  // .git becomes a mount point of its own, so it cannot be renamed away and replaced by a copy
  // whose hooks and config are writable; inside it, hooks and config are read-only.
  const gitDir = path.join(plan.folder, '.git');
  if (isDirectory(gitDir)) argv.push('--bind', gitDir, gitDir);
  for (const p of protectedPaths(plan.folder)) argv.push('--ro-bind', p, p);
  if (!plan.allowNetwork) argv.push('--unshare-net');
  argv.push('--unshare-pid', '--die-with-parent', '--chdir', plan.folder, '--', ...command);
  return argv;
}

function quoteSbpl(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A sandbox-exec (SBPL) profile with the same intent. macOS has no private /tmp mount, so the
 * caller points TMPDIR at `tmpDir`, the only writable place besides the project.
 */
export function sandboxExecProfile(plan: SandboxPlan & { readonly tmpDir: string }): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    ';; Nothing outside the project (and a per-command temp folder) may be written.',
    '(deny file-write*)',
    `(allow file-write* (subpath ${quoteSbpl(plan.folder)}) (subpath ${quoteSbpl(plan.tmpDir)}) (literal "/dev/null") (regex #"^/dev/tty"))`,
    ';; Git hooks and config would run code later outside the sandbox.',
    `(deny file-write* (subpath ${quoteSbpl(path.join(plan.folder, '.git', 'hooks'))}) (literal ${quoteSbpl(path.join(plan.folder, '.git', 'config'))}))`,
  ];
  if (plan.home) {
    lines.push(
      ';; The home folder is hidden, apart from the project.',
      `(deny file-read* (subpath ${quoteSbpl(plan.home)}))`,
      `(allow file-read* (subpath ${quoteSbpl(plan.folder)}) (literal ${quoteSbpl(plan.home)}))`,
    );
  }
  if (!plan.allowNetwork)
    lines.push(
      ';; Network is off unless the person allowed it.',
      '(deny network*)',
      '(allow network* (local unix))',
    );
  return `${lines.join('\n')}\n`;
}

/** The sandbox-exec argv prefix for a profile. */
export function sandboxExecArgv(profile: string, command: readonly string[]): string[] {
  return ['/usr/bin/sandbox-exec', '-p', profile, ...command];
}
