// The change tracker's index in memory: path → entry, with the counts the caps need, the folders
// left out and the paths that could not be read. Every change goes through `set`, which keeps the
// counts right and notes the change (first state before, last state after) for the current look.
import type { TreeEntry } from './tree-entry';
import type { TreeWatch } from './tree-watch';

export interface TreeChange {
  readonly before: TreeEntry | undefined;
  readonly after: TreeEntry | undefined;
}

export interface ScanOutcome {
  /** Path (relative, `/`) → first and last state seen in this look. */
  readonly changes: Map<string, TreeChange>;
  /** Folders newly left out in this look, with the reason. */
  readonly leftOut: Map<string, string>;
}

export class TreeIndex {
  readonly entries = new Map<string, TreeEntry>();
  readonly leftOut = new Map<string, string>();
  readonly unreadable = new Map<string, string>();
  /** Files and symlinks in the index, and the bytes of the files. */
  files = 0;
  bytes = 0;

  constructor(private readonly watch: TreeWatch | undefined) {}

  clear(): void {
    this.entries.clear();
    this.files = 0;
    this.bytes = 0;
  }

  removeTree(rel: string, outcome: ScanOutcome | undefined): void {
    const entry = this.entries.get(rel);
    if (entry?.kind === 'dir') {
      this.watch?.removeUnder(rel);
      for (const path of [...this.entries.keys()]) {
        if (path.startsWith(`${rel}/`)) this.set(path, undefined, outcome);
      }
    }
    if (entry) this.set(rel, undefined, outcome);
    for (const map of [this.leftOut, this.unreadable]) {
      for (const dir of [...map.keys()]) {
        if (dir === rel || dir.startsWith(`${rel}/`)) map.delete(dir);
      }
    }
  }

  /** The one place the index changes: counts follow, and the change is noted. */
  set(rel: string, entry: TreeEntry | undefined, outcome: ScanOutcome | undefined): void {
    const old = this.entries.get(rel);
    if (old === entry) return;
    if (old && old.kind !== 'dir') {
      this.files -= 1;
      if (old.kind === 'file') this.bytes -= old.size;
    }
    if (entry) {
      this.entries.set(rel, entry);
      if (entry.kind !== 'dir') {
        this.files += 1;
        if (entry.kind === 'file') this.bytes += entry.size;
      }
    } else {
      this.entries.delete(rel);
    }
    if (!outcome) return;
    const noted = outcome.changes.get(rel);
    outcome.changes.set(rel, { before: noted ? noted.before : old, after: entry });
  }

  leftOutAbove(rel: string): string | undefined {
    for (const dir of this.leftOut.keys()) {
      if (rel === dir || rel.startsWith(`${dir}/`)) return dir;
    }
    return undefined;
  }
}
