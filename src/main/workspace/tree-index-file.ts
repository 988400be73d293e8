// The change tracker's index on disk: a base file plus a log of changes since, so a look that
// changed three files appends three lines instead of rewriting ten thousand. It serves two needs:
// a reopened project starts from the last look (only what changed since is read again), and after
// a crash during a command the index as it was before the command is what reconcile compares
// the disk with. Every line read back is checked; a bad one ends the replay there.
import { closeSync, ftruncateSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openPrivateFile } from '../store/private-files';
import { parseEntry, type TreeEntry } from './tree-entry';

export interface StoredIndex {
  readonly entries: Map<string, TreeEntry>;
  readonly leftOut: Map<string, string>;
}

type LogLine =
  | { readonly p: string; readonly e: TreeEntry | null }
  | { readonly leftOut: readonly (readonly [string, string])[] };

export class TreeIndexFile {
  private logFd: number | undefined;
  private logLines = 0;

  constructor(private readonly dir: string) {}

  private get basePath(): string {
    return join(this.dir, 'index.json');
  }

  private get logPath(): string {
    return join(this.dir, 'index.log');
  }

  load(): StoredIndex | undefined {
    let base: unknown;
    try {
      base = JSON.parse(readFileSync(this.basePath, 'utf8'));
    } catch {
      return undefined;
    }
    const index = parseBase(base);
    if (!index) return undefined;
    let log = '';
    try {
      log = readFileSync(this.logPath, 'utf8');
    } catch {
      // No changes since the base.
    }
    for (const line of log.split('\n')) {
      if (!line) continue;
      if (!applyLine(index, line)) break; // Torn by a crash: the rest cannot be trusted either.
      this.logLines += 1;
    }
    return index;
  }

  /** Appends what one look changed. */
  append(
    changes: Iterable<[string, TreeEntry | undefined]>,
    leftOut?: ReadonlyMap<string, string>,
  ): void {
    const lines: string[] = [];
    for (const [p, entry] of changes) lines.push(JSON.stringify({ p, e: entry ?? null }));
    if (leftOut) lines.push(JSON.stringify({ leftOut: [...leftOut] }));
    if (lines.length === 0) return;
    const fd = this.log();
    writeSync(fd, lines.join('\n') + '\n');
    this.logLines += lines.length;
  }

  /** Lines appended since the base was written. */
  get pending(): number {
    return this.logLines;
  }

  /** Writes the whole index as the new base and empties the log. */
  writeBase(entries: ReadonlyMap<string, TreeEntry>, leftOut: ReadonlyMap<string, string>): void {
    const temp = `${this.basePath}.tmp`;
    const fd = openPrivateFile(temp, 'w');
    try {
      writeSync(fd, JSON.stringify({ v: 1, entries: [...entries], leftOut: [...leftOut] }));
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.basePath);
    ftruncateSync(this.log(), 0);
    this.logLines = 0;
  }

  close(): void {
    if (this.logFd !== undefined) closeSync(this.logFd);
    this.logFd = undefined;
  }

  private log(): number {
    this.logFd ??= openPrivateFile(this.logPath, 'a');
    return this.logFd;
  }
}

function parseBase(value: unknown): StoredIndex | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { v?: unknown; entries?: unknown; leftOut?: unknown };
  if (v.v !== 1 || !Array.isArray(v.entries) || !Array.isArray(v.leftOut)) return undefined;
  const entries = new Map<string, TreeEntry>();
  for (const item of v.entries as unknown[]) {
    if (!Array.isArray(item) || typeof item[0] !== 'string') return undefined;
    const entry = parseEntry(item[1]);
    if (!entry) return undefined;
    entries.set(item[0], entry);
  }
  const leftOut = parseLeftOut(v.leftOut);
  return leftOut ? { entries, leftOut } : undefined;
}

function parseLeftOut(value: unknown): Map<string, string> | undefined {
  if (!Array.isArray(value)) return undefined;
  const map = new Map<string, string>();
  for (const item of value as unknown[]) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string')
      return undefined;
    map.set(item[0], item[1]);
  }
  return map;
}

function applyLine(index: StoredIndex, line: string): boolean {
  let value: LogLine;
  try {
    value = JSON.parse(line) as LogLine;
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null) return false;
  if ('leftOut' in value) {
    const leftOut = parseLeftOut(value.leftOut);
    if (!leftOut) return false;
    index.leftOut.clear();
    for (const [k, v] of leftOut) index.leftOut.set(k, v);
    return true;
  }
  if (typeof value.p !== 'string') return false;
  if (value.e === null) {
    index.entries.delete(value.p);
    return true;
  }
  const entry = parseEntry(value.e);
  if (!entry) return false;
  index.entries.set(value.p, entry);
  return true;
}
