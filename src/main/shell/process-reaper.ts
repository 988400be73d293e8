// Kills every process a command left behind. node-pty makes the command a session leader, so its
// session and process group carry its pid; on Linux /proc also finds children that changed group.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses; the fields after the last ')' do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]) };
  } catch {
    return undefined;
  }
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
    .filter((name) => /^\d+$/.test(name))
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

/** SIGKILLs the leader's process group and everything else `processesOf` finds. */
export function killProcessTree(leader: number): void {
  const members = processesOf(leader);
  tryKill(-leader, 'SIGKILL');
  for (const pid of members) tryKill(pid, 'SIGKILL');
}
