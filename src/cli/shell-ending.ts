// How a shell call ended, read back from what the shell tool gives the model: its status line
// (formatShellResult in src/main/tools/shell-tool.ts: "exit code 0 · 1.2 s · sandbox: …"), and
// the first line of the "Changes on disk" note the command journal adds after it
// (src/main/tools/command-journal.ts). The terminal shows them under the command's live output.

export interface ShellEnding {
  /** "exit code 0", "killed by SIGKILL", "timed out after 120 s; …", "stopped; …" */
  readonly status: string;
  /** "1.2 s" */
  readonly duration: string;
  /** "Changes on disk (can be reverted): 1 file changed, +1 −1", when the journal said so. */
  readonly changes: string | null;
}

const STATUS = /^(exit code \S+|killed by \S+|timed out after .+|stopped; .+)$/;
const DURATION = /^\d+(\.\d)? s$/;
const CHANGES = 'Changes on disk';

/** The ending of a shell call, or null when its output has no status line (it did not run). */
export function shellEnding(output: string): ShellEnding | null {
  const lines = output.trimEnd().split('\n');
  // From the end: the journal's note (file lines and diffs, each with a prefix) never looks like
  // a status line, so the last line that does is the tool's, if anything after it is the note.
  for (let at = lines.length - 1; at >= 0; at--) {
    const [status, duration, ...rest] = (lines[at] ?? '').split(' · ');
    if (status === undefined || duration === undefined || rest.length === 0) continue;
    if (!STATUS.test(status) || !DURATION.test(duration)) continue;
    if (at === lines.length - 1) return { status, duration, changes: null };
    const note = lines[at + 2];
    return lines[at + 1] === '' && note?.startsWith(CHANGES)
      ? { status, duration, changes: note }
      : null;
  }
  return null;
}
