// Test support: is a process still alive (zombies count as gone), and which live in a group.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Live (non-zombie) pids in a process group, from `ps -g`. */
export function groupMembers(pgid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=,stat=', '-g', String(pgid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when nothing matches
  }
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat]) => pid && stat && !stat.startsWith('Z'))
    .map(([pid]) => Number(pid));
}
