// Lines added and removed between two texts, counted from jsdiff's hunks. One count for the write
// preview and for the summary of what a command changed.
import { structuredPatch } from 'diff';

export interface DiffStats {
  readonly added: number;
  readonly removed: number;
}

export function diffStats(oldText: string, newText: string): DiffStats {
  let added = 0;
  let removed = 0;
  for (const hunk of structuredPatch('a', 'b', oldText, newText, '', '', { context: 0 }).hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  return { added, removed };
}
