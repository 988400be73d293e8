// How a shell call ended, read back from the last line the shell tool gives the model
// (formatShellResult in src/main/tools/shell-tool.ts: "exit code 0 · 1.2 s · sandbox: …"), so
// the terminal can show "exit code 1 · 0.4 s" under the command's live output.

export interface ShellEnding {
  /** "exit code 0", "killed by SIGKILL", "timed out after 120 s; …", "stopped; …" */
  readonly status: string;
  /** "1.2 s" */
  readonly duration: string;
}

const STATUS = /^(exit code \S+|killed by \S+|timed out after .+|stopped; .+)$/;
const DURATION = /^\d+(\.\d)? s$/;

/** The ending of a shell call, or null when its output has no status line (it did not run). */
export function shellEnding(output: string): ShellEnding | null {
  const last = output.trimEnd().split('\n').at(-1) ?? '';
  const [status, duration] = last.split(' · ');
  if (status === undefined || duration === undefined) return null;
  if (!STATUS.test(status) || !DURATION.test(duration)) return null;
  return { status, duration };
}
