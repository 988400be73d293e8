// Builds the OS sandbox around a command: bubblewrap on Linux, sandbox-exec on macOS. Same intent
// on both: the system read-only, a private /tmp, the home folder hidden apart from the project,
// network off unless the person allowed it. The project folder is read-only for a command the
// classifier judged read-only (so a hole in the classifier still cannot write), read-write
// otherwise; then .git is read-only unless the command runs git, and even then the parts of .git
// that make git run code later outside the sandbox (hooks, config, commondir...) stay read-only.
import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { isInside } from '../workspace/path-guard';

/** What the command may do to the project folder; see `planCommandRun`. */
export type ProjectAccess =
  | { readonly kind: 'read-only' }
  | { readonly kind: 'read-write'; readonly git: 'read-only' | 'protected' };

export interface SandboxPlan {
  /** Real path of the project folder. */
  readonly folder: string;
  /** The person's home folder, hidden from the command; '' for none. */
  readonly home: string;
  readonly allowNetwork: boolean;
  readonly access: ProjectAccess;
  /** Where the command starts; the project folder when absent (an MCP server may name another). */
  readonly cwd?: string;
  /**
   * Real paths of Tandem's own data folders. Each one the command could otherwise see (inside the
   * project, or anywhere not already hidden) is covered by an empty read-only tmpfs.
   */
  readonly dataFolders?: readonly string[];
  /**
   * 'hidden': the host's socket folders (/run: the session bus, systemd, docker, ssh agents) are
   * emptied whatever the project access, for a program no one approves run by run (an MCP server).
   * Absent: emptied only for read-only access; a command the person approved keeps them.
   */
  readonly hostSockets?: 'hidden';
  /**
   * Real paths shown read-only although they lie in the hidden home folder or /tmp: an MCP
   * server's own program files (the person accepted the command line that names them).
   */
  readonly programFolders?: readonly string[];
}

/** Whether the plan empties the host's socket folders (see `SandboxPlan.hostSockets`). */
export function hidesHostSockets(plan: SandboxPlan): boolean {
  return plan.access.kind === 'read-only' || plan.hostSockets === 'hidden';
}

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

/**
 * Isolation every sandboxed command gets (and the probe checks). Run as root, bwrap keeps every
 * capability inside, so `mount -o remount,rw` would undo the read-only binds and CAP_SYS_TIME
 * would set the host clock: --cap-drop ALL removes them (also from the bounding set, so nothing
 * the command executes gets them back). A user namespace scopes whatever is left to the sandbox;
 * "-try" because some hosts forbid user namespaces yet run bwrap, and dropping the capabilities
 * is what closes the hole. bwrap's default mapping keeps the real uid, so files an approved command
 * writes are the person's. Hostname and System V IPC are the sandbox's own.
 */
export const BWRAP_ISOLATION_ARGS: readonly string[] = [
  '--unshare-user-try',
  '--cap-drop',
  'ALL',
  '--unshare-uts',
  '--unshare-ipc',
  '--unshare-pid',
  '--die-with-parent',
];

/**
 * Entries of a git folder that make git run code or read settings from elsewhere, so they stay
 * read-only even for a command that runs git: hooks and config run code directly; commondir and
 * config.worktree redirect or add settings; info/ and modules/ (submodule repositories, each with
 * its own config and hooks) and worktrees/ (each with its own commondir) hold more of the same.
 */
export const PROTECTED_GIT_ENTRIES: readonly string[] = [
  'hooks',
  'config',
  'commondir',
  'config.worktree',
  'info',
  'modules',
  'worktrees',
];

/** How deep below the project folder nested repositories (vendored, submodules) are looked for. */
const NESTED_GIT_DEPTH = 2;
/** Folders scanned for nested repositories at most, so a huge tree cannot slow every command. */
const MAX_SCANNED_FOLDERS = 2_000;

export interface GitEntry {
  readonly path: string;
  /** A `.git` folder, or a `.git` file (`gitdir: ...`, as in submodules and worktrees). */
  readonly kind: 'folder' | 'file';
}

export interface GitScan {
  readonly entries: readonly GitEntry[];
  /**
   * `.git` symlinks, not followed and not bound: git follows them (`sub/.git -> ../elsewhere`
   * makes `sub` a repository whose config is `elsewhere/config`), so their configs are checked.
   */
  readonly links: readonly string[];
  /** False when the scan stopped at `limit` folders: there may be more. */
  readonly complete: boolean;
}

function entryKind(p: string): GitEntry['kind'] | 'link' | undefined {
  try {
    const stat = lstatSync(p);
    if (stat.isDirectory()) return 'folder';
    if (stat.isFile()) return 'file';
    if (stat.isSymbolicLink()) return 'link';
  } catch {
    // Missing or unreadable: nothing to bind.
  }
  return undefined;
}

function direntKind(entry: Dirent): GitEntry['kind'] | 'link' | undefined {
  if (entry.isDirectory()) return 'folder';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'link';
  return undefined;
}

/**
 * `.git` folders and files in the project folder and up to `depth` levels below it (no symlinks
 * followed). The sandbox binds these; repositories git itself enters (submodules, at any depth)
 * are found through git's index instead (git-toplevel.ts).
 */
export function findGitEntries(
  folder: string,
  depth = NESTED_GIT_DEPTH,
  limit = MAX_SCANNED_FOLDERS,
): GitScan {
  const found: GitEntry[] = [];
  const links: string[] = [];
  let level = [folder];
  let scanned = 0;
  const note = (gitPath: string, kind: GitEntry['kind'] | 'link' | undefined) => {
    if (kind === 'link') links.push(gitPath);
    else if (kind) found.push({ path: gitPath, kind });
  };
  for (let at = 0; at <= depth && level.length > 0; at++) {
    const next: string[] = [];
    for (const dir of level) {
      const gitPath = path.join(dir, '.git');
      if (at === depth || scanned >= limit) {
        note(gitPath, entryKind(gitPath));
        if (at === depth) continue;
        return { entries: found, links, complete: false };
      }
      scanned++;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        // Unreadable folder: nothing below it to protect that the command could read either,
        // but a .git in it may still be reached by name.
        note(gitPath, entryKind(gitPath));
        continue;
      }
      // The listing already says what .git is (as lstat would: links are not followed), so a
      // project of thousands of folders costs no extra lstat per folder.
      for (const entry of entries) {
        if (entry.name === '.git') note(gitPath, direntKind(entry));
        else if (entry.isDirectory()) next.push(path.join(dir, entry.name));
      }
    }
    level = next;
  }
  return { entries: found, links, complete: true };
}

/** Existing protected entries of one git folder; only existing paths can be bound. */
export function protectedPaths(gitDir: string): string[] {
  return PROTECTED_GIT_ENTRIES.map((name) => path.join(gitDir, name)).filter((p) => existsSync(p));
}

function gitMounts(access: ProjectAccess, entries: readonly GitEntry[]): string[] {
  // A read-only project needs nothing more: everything below it is read-only already.
  if (access.kind === 'read-only') return [];
  const mounts: string[] = [];
  for (const entry of entries) {
    // A .git file says where the repository is; rewriting it would point git at one the
    // command made. No git command needs to write it.
    if (entry.kind === 'file' || access.git === 'read-only') {
      mounts.push('--ro-bind', entry.path, entry.path);
      continue;
    }
    // .git becomes a mount point of its own, so it cannot be renamed away and replaced by a copy
    // whose hooks and config are writable; inside it, the protected entries are read-only.
    mounts.push('--bind', entry.path, entry.path);
    for (const p of protectedPaths(entry.path)) mounts.push('--ro-bind', p, p);
  }
  return mounts;
}

/**
 * The bwrap argv prefix; append the command's own argv. No `--new-session`: the pty is the
 * command's own (nothing outside reads it, so TIOCSTI cannot reach the person's terminal), and
 * keeping it as the controlling terminal lets Ctrl-C and job control work for the person.
 * `gitEntries` defaults to scanning the project folder now.
 */
export function bwrapArgv(
  plan: SandboxPlan,
  command: readonly string[],
  gitEntries: readonly GitEntry[] = findGitEntries(plan.folder).entries,
): string[] {
  const argv = ['bwrap', ...BWRAP_BASE_ARGS];
  // A command no one approved reaches no host socket (the session bus, a docker or ssh agent).
  if (hidesHostSockets(plan)) {
    argv.push(...hostSocketMounts(plan.folder));
    // With network (an MCP server may have both), names must still resolve where resolv.conf is
    // a link into /run (systemd-resolved): its target file comes back, read-only, alone.
    if (plan.allowNetwork) argv.push(...resolverMounts(plan.folder));
  }
  // Hide the home folder (unless it is the system root or the project itself).
  if (
    plan.home &&
    plan.home !== '/' &&
    !isInside(plan.home, '/tmp') &&
    !isInside(plan.folder, plan.home)
  ) {
    argv.push('--tmpfs', plan.home);
  }
  for (const dir of plan.programFolders ?? []) argv.push('--ro-bind', dir, dir);
  // Bound after the tmpfs mounts so a project under /tmp or the home folder stays visible.
  argv.push(
    plan.access.kind === 'read-only' ? '--ro-bind' : '--bind',
    plan.folder,
    plan.folder,
    ...gitMounts(plan.access, gitEntries),
  );
  // Last, so they cover the project's bind: an empty, read-only folder is all a command sees.
  for (const dir of dataFoldersToHide(plan)) argv.push('--tmpfs', dir, '--remount-ro', dir);
  if (!plan.allowNetwork) argv.push('--unshare-net');
  argv.push(...BWRAP_ISOLATION_ARGS, '--chdir', plan.cwd ?? plan.folder, '--', ...command);
  return argv;
}

/**
 * The data folders bwrap must cover: those that exist, are not hidden already (by the private
 * /tmp or the hidden home folder) unless the project or a program folder makes them visible
 * again, and do not hold the project itself (the folder rules refuse such a project; it could not
 * be hidden without it).
 */
export function dataFoldersToHide(plan: SandboxPlan): string[] {
  const hiddenHome =
    plan.home !== '' &&
    plan.home !== '/' &&
    !isInside(plan.home, '/tmp') &&
    !isInside(plan.folder, plan.home);
  return (plan.dataFolders ?? []).filter((dir) => {
    if (isInside(dir, plan.folder) || !isDirectory(dir)) return false;
    if (isInside(plan.folder, dir)) return true;
    // A program folder bound back (an MCP server's install) may hold it, or lie inside it.
    const programs = plan.programFolders ?? [];
    if (programs.some((program) => isInside(program, dir) || isInside(dir, program))) return true;
    if (isInside('/tmp', dir)) return false;
    return !(hiddenHome && isInside(plan.home, dir));
  });
}

function isDirectory(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Folders of host sockets, emptied for read-only commands (not when the project is inside one). */
export const SOCKET_FOLDERS: readonly string[] = ['/run', '/var/run'];

function hostSocketMounts(folder: string): string[] {
  const mounts: string[] = [];
  for (const dir of SOCKET_FOLDERS) {
    let real: boolean;
    try {
      real = lstatSync(dir).isDirectory(); // /var/run is usually a link to /run: covered by it
    } catch {
      real = false;
    }
    if (real && !isInside(dir, folder)) mounts.push('--tmpfs', dir);
  }
  return mounts;
}

/** The file /etc/resolv.conf leads to, when it lies in a socket folder the sandbox empties. */
export function resolverMounts(folder: string, resolvConf = '/etc/resolv.conf'): string[] {
  let target: string;
  try {
    target = realpathSync(resolvConf);
  } catch {
    return [];
  }
  const emptied = SOCKET_FOLDERS.some((dir) => isInside(dir, target) && !isInside(dir, folder));
  return emptied ? ['--ro-bind', target, target] : [];
}

function quoteSbpl(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A sandbox-exec (SBPL) profile with the same intent. macOS has no private /tmp mount, so the
 * caller points TMPDIR at `tmpDir`, the only writable place besides the project.
 */
export function sandboxExecProfile(
  plan: SandboxPlan & { readonly tmpDir: string },
  gitEntries: readonly GitEntry[] = findGitEntries(plan.folder).entries,
): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    ';; Nothing outside the project (and a per-command temp folder) may be written.',
    '(deny file-write*)',
    plan.access.kind === 'read-only'
      ? `(allow file-write* (subpath ${quoteSbpl(plan.tmpDir)}) (literal "/dev/null") (regex #"^/dev/tty"))`
      : `(allow file-write* (subpath ${quoteSbpl(plan.folder)}) (subpath ${quoteSbpl(plan.tmpDir)}) (literal "/dev/null") (regex #"^/dev/tty"))`,
  ];
  if (plan.access.kind === 'read-write' && gitEntries.length > 0) {
    const rules: string[] = [];
    for (const entry of gitEntries) {
      if (entry.kind === 'file' || plan.access.git === 'read-only') {
        rules.push(`(subpath ${quoteSbpl(entry.path)})`);
        continue;
      }
      // SBPL rules match paths, so entries that do not exist yet cannot be created either.
      rules.push(`(literal ${quoteSbpl(entry.path)})`);
      for (const name of PROTECTED_GIT_ENTRIES)
        rules.push(`(subpath ${quoteSbpl(path.join(entry.path, name))})`);
    }
    lines.push(
      ';; Git settings and hooks would run code later outside the sandbox.',
      `(deny file-write* ${rules.join(' ')})`,
    );
  }
  if (plan.home) {
    lines.push(
      ';; The home folder is hidden, apart from the project.',
      `(deny file-read* (subpath ${quoteSbpl(plan.home)}))`,
      `(allow file-read* (subpath ${quoteSbpl(plan.folder)}) (literal ${quoteSbpl(plan.home)}))`,
    );
  }
  for (const dir of plan.dataFolders ?? []) {
    if (isInside(dir, plan.folder)) continue;
    lines.push(
      ";; Tandem's own data (settings, approvals, transcripts, undo history) is never reached.",
      `(deny file-read* file-write* (subpath ${quoteSbpl(dir)}))`,
    );
  }
  if (hidesHostSockets(plan)) {
    lines.push(
      ';; A command no one approved reaches no host socket.',
      '(deny network-outbound (remote unix-socket))',
      '(deny file-read* (subpath "/private/var/run") (subpath "/var/run"))',
    );
  }
  if (!plan.allowNetwork)
    lines.push(
      ';; Network is off unless the person allowed it.',
      '(deny network*)',
      ...(hidesHostSockets(plan) ? [] : ['(allow network* (local unix))']),
    );
  return `${lines.join('\n')}\n`;
}

/** The sandbox-exec argv prefix for a profile. */
export function sandboxExecArgv(profile: string, command: readonly string[]): string[] {
  return ['/usr/bin/sandbox-exec', '-p', profile, ...command];
}
