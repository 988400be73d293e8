// Kills every process a command left behind. node-pty makes the command a session leader, so its
// session and process group carry its pid; on Linux /proc also finds children that changed group.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
}

// One buffer for every read: the scan runs after each command, over every process on the machine,
// so it opens, reads and closes each stat file once (no fstat, no allocation per file).
const statBuffer = Buffer.alloc(4096);

function readStat(pid: number): ProcStat | undefined {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return undefined; // gone already
  }
  try {
    const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
    const stat = statBuffer.toString('latin1', 0, length);
    // The command name may contain spaces and parentheses; the fields after the last ')' do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 4);
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]) };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function isPid(name: string): boolean {
  const first = name.charCodeAt(0);
  return first >= 48 && first <= 57 && /^\d+$/.test(name);
}

/** Pids in the leader's session or group, or descended from it. Linux only; elsewhere []. */
export function processesOf(leader: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const stats = entries
    .filter(isPid)
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined);
  const found = new Set<number>();
  for (const stat of stats) {
    if (stat.pid === leader || stat.session === leader || stat.pgrp === leader) found.add(stat.pid);
  }
  // Descendants that started their own session: follow parent links until nothing new appears.
  let grew = true;
  while (grew) {
    grew = false;
    for (const stat of stats) {
      if (!found.has(stat.pid) && found.has(stat.ppid)) {
        found.add(stat.pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGKILLs the leader's process group (one call, no scan). */
export function killProcessGroup(leader: number): void {
  tryKill(-leader, 'SIGKILL');
}

/** SIGKILLs the leader's process group and everything else `processesOf` finds. */
export function killProcessTree(leader: number): void {
  const members = processesOf(leader);
  tryKill(-leader, 'SIGKILL');
  for (const pid of members) tryKill(pid, 'SIGKILL');
}
