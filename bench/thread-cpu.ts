// How much CPU a child process has used so far, read while it runs (Linux /proc).
import { readdirSync, readFileSync } from 'node:fs';

/** The on-CPU time of every live thread of `pid`, in ms (Linux; NaN elsewhere). */
export function threadCpuMs(pid: number): number {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}
