// The change tracker's index of the project and the two ways to bring it up to date: a full walk
// (at open, and whenever the watch cannot be trusted) and a look at only the paths the watch saw
// change. Both stat first and read a file only when its stat changed (or was too fresh to trust),
// store what they read in the object store, and return what changed since the previous look.
// Symlinks are recorded as links and never followed; `.git` folders and Tandem's own data are
// skipped; FIFOs, sockets and devices are not tracked. Caps are counted as the walk goes.
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { formatBytes } from '../../shared/change-report';
import type { GitignoreRules } from './gitignore-rules';
import { TooBigError, type ObjectStore } from './object-store';
import { readEntry, sameStat, type TreeEntry } from './tree-entry';
import { TreeIndex, type ScanOutcome, type TreeChange } from './tree-index';
import type { TreeWatch } from './tree-watch';

export interface ScanLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/** Thrown when the part of the project that is not ignored is larger than the caps. */
export type { ScanOutcome, TreeChange } from './tree-index';

export class OverCapError extends Error {}

const YIELD_EVERY = 500;

export class TreeScan {
  private readonly tree: TreeIndex;
  private work = 0;
  /** During a walk: the index as it was, to reuse entries whose stat did not change. */
  private prior: Map<string, TreeEntry> | undefined;
  /** Bytes of a file the last walk did not copy because they did not fit (for the message). */
  private refused = 0;

  constructor(
    private readonly root: string,
    private readonly objects: ObjectStore,
    private readonly rules: GitignoreRules,
    private readonly limits: ScanLimits,
    /** Relative paths never walked (Tandem's own data when it lies inside the project). */
    private readonly skip: ReadonlySet<string>,
    private readonly watch: TreeWatch | undefined,
  ) {
    this.tree = new TreeIndex(watch);
  }

  get index(): ReadonlyMap<string, TreeEntry> {
    return this.tree.entries;
  }

  /** Folders not tracked (over the cap), with the reason. */
  get leftOut(): ReadonlyMap<string, string> {
    return this.tree.leftOut;
  }

  /** Files and folders that could not be read, with the reason (stated in every report). */
  get unreadable(): ReadonlyMap<string, string> {
    return this.tree.unreadable;
  }

  get counts(): { files: number; bytes: number } {
    return { files: this.tree.files, bytes: this.tree.bytes };
  }

  /** Replaces the index with a loaded one (its objects are in the store). */
  adopt(entries: ReadonlyMap<string, TreeEntry>, leftOut: ReadonlyMap<string, string>): void {
    this.tree.clear();
    for (const [rel, entry] of entries) this.tree.set(rel, entry, undefined);
    this.tree.leftOut.clear();
    for (const [rel, reason] of leftOut) this.tree.leftOut.set(rel, reason);
  }

  /**
   * Walks everything. The part git would not ignore comes first and must fit the caps (else
   * OverCapError); ignored folders follow while they fit, and the rest are left out, stated.
   */
  async full(): Promise<ScanOutcome> {
    // Fresh watches and rules: a folder replaced while the watch could not be trusted must not
    // keep the watch of the one it replaced.
    this.watch?.removeUnder('');
    this.rules.clear();
    const prior = new Map(this.tree.entries);
    this.tree.clear();
    this.tree.leftOut.clear();
    this.tree.unreadable.clear();
    this.prior = prior;
    this.refused = 0;
    try {
      const deferred: string[] = [];
      const lookedAt = Date.now();
      const fits = await this.walk('', lookedAt, deferred, undefined);
      if (!fits) throw new OverCapError(this.capMessage());
      const leftOut = new Map<string, string>();
      for (const dir of deferred) {
        const stats = lstatSync(this.abs(dir), { throwIfNoEntry: false });
        if (!stats?.isDirectory()) continue;
        const reason = await this.tryWalk(dir, stats, lookedAt, undefined);
        if (reason) leftOut.set(dir, reason);
      }
      const changes = new Map<string, TreeChange>();
      for (const [rel, before] of prior) {
        if (this.tree.leftOutAbove(rel) !== undefined) continue; // Left out is not deleted.
        const after = this.tree.entries.get(rel);
        if (after !== before) changes.set(rel, { before, after });
      }
      for (const [rel, after] of this.tree.entries) {
        if (!prior.has(rel)) changes.set(rel, { before: undefined, after });
      }
      return { changes, leftOut };
    } catch (error) {
      if (error instanceof OverCapError) {
        this.watch?.removeUnder('');
        this.tree.clear();
      }
      throw error;
    } finally {
      this.prior = undefined;
    }
  }

  /**
   * Looks at the paths the watch reported. Entries too fresh to trust by their stat need no second
   * look here: a change after the last look produced an event of its own.
   */
  async dirty(paths: ReadonlySet<string>): Promise<ScanOutcome> {
    const outcome: ScanOutcome = { changes: new Map(), leftOut: new Map() };
    const lookedAt = Date.now();
    const todo = paths;
    const ordered = [...todo].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
    try {
      await this.lookAll(ordered, outcome, lookedAt);
    } catch (error) {
      // Over the cap: the index goes back to the last look, so a full walk compares with it.
      for (const [rel, change] of outcome.changes) this.tree.set(rel, change.before, undefined);
      throw error;
    }
    return outcome;
  }

  private async lookAll(ordered: string[], outcome: ScanOutcome, lookedAt: number): Promise<void> {
    for (const raw of ordered) {
      const rel = raw === '.' ? '' : raw;
      if (rel === '') {
        await this.relist('', outcome, lookedAt);
        continue;
      }
      if (this.isSkipped(rel)) continue;
      if (rel === '.gitignore' || rel.endsWith('/.gitignore')) this.rules.forget(rel);
      const left = this.tree.leftOutAbove(rel);
      if (left !== undefined) {
        if (left !== rel || lstatSync(this.abs(rel), { throwIfNoEntry: false })?.isDirectory())
          continue;
        this.tree.leftOut.delete(rel); // The left-out folder went away: tracked again if it returns.
      }
      const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
      if (parent !== '' && this.tree.entries.get(parent)?.kind !== 'dir') {
        this.tree.removeTree(rel, outcome); // Its folder is gone or is not a real folder any more.
        continue;
      }
      await this.look(rel, outcome, lookedAt, true);
    }
  }

  capMessage(pending = this.refused): string {
    return (
      `The project is ${formatBytes(this.tree.bytes + pending)} in ${this.tree.files} files (not counting what .gitignore excludes), ` +
      `above the snapshot cap of ${formatBytes(this.limits.maxBytes)} / ${this.limits.maxFiles} files`
    );
  }

  /** One path: stat it, update the index, walk it when it is a folder that is new. */
  private async look(
    rel: string,
    outcome: ScanOutcome,
    lookedAt: number,
    rescanFolders: boolean,
  ): Promise<void> {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(this.abs(rel), { throwIfNoEntry: false });
    } catch {
      stats = undefined; // ENOTDIR and the like: not there as far as tracking goes.
    }
    const old = this.tree.entries.get(rel);
    if (!stats) {
      this.tree.removeTree(rel, outcome);
      return;
    }
    if (stats.isDirectory()) {
      if (old && old.kind !== 'dir') this.tree.set(rel, undefined, outcome);
      // A folder named by the watch was made, moved, replaced or re-attributed: look inside again.
      if (rescanFolders || old?.kind !== 'dir' || old.ino !== stats.ino) {
        this.watch?.removeUnder(rel);
        await this.walkSubtree(rel, stats, outcome, lookedAt);
      }
      return;
    }
    if (old?.kind === 'dir') this.tree.removeTree(rel, outcome);
    let entry: TreeEntry | undefined;
    try {
      entry = await this.entryFor(rel, stats, lookedAt);
    } catch (error) {
      if (error instanceof TooBigError) throw new OverCapError(this.capMessage(error.size));
      throw error;
    }
    this.tree.set(rel, entry, outcome);
  }

  /** Reads what changed: a file's content into the store, a symlink's target. */
  private async entryFor(
    rel: string,
    stats: Stats,
    lookedAt: number,
  ): Promise<TreeEntry | undefined> {
    const old = (this.prior ?? this.tree.entries).get(rel);
    if (sameStat(old, stats)) return old;
    // Room left under the byte cap (the entry this one replaces gives its bytes back): a file
    // bigger than that is not copied at all.
    const current = this.tree.entries.get(rel);
    const room =
      this.limits.maxBytes - this.tree.bytes + (current?.kind === 'file' ? current.size : 0);
    const read = await readEntry(this.root, this.abs(rel), stats, lookedAt, this.objects, room);
    if (read.kind === 'unreadable')
      this.tree.unreadable.set(rel, `${rel} (cannot be read: ${read.reason})`);
    else this.tree.unreadable.delete(rel);
    return read.kind === 'entry' ? read.entry : undefined;
  }

  /**
   * Adds `rel`'s contents to the index. With `deferred`, ignored folders are set aside for later.
   * Returns false as soon as the caps are passed (the caller rolls back or gives up).
   */
  private async walk(
    rel: string,
    lookedAt: number,
    deferred: string[] | undefined,
    outcome: ScanOutcome | undefined,
  ): Promise<boolean> {
    this.watch?.add(rel); // Before reading the folder, so nothing made meanwhile is missed.
    let names: string[];
    try {
      names = this.listNames(rel);
      this.tree.unreadable.delete(rel);
    } catch (error) {
      this.tree.unreadable.set(
        rel,
        `${rel || '.'}/ (cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
      return true;
    }
    for (const name of names.sort()) {
      if (name === '.git') continue;
      const child = rel === '' ? name : `${rel}/${name}`;
      if (this.skip.has(child)) continue;
      let stats: Stats | undefined;
      try {
        stats = lstatSync(this.abs(child), { throwIfNoEntry: false });
      } catch {
        stats = undefined;
      }
      if (!stats) continue;
      if (++this.work % YIELD_EVERY === 0) await new Promise<void>((r) => setImmediate(r));
      if (stats.isDirectory()) {
        if (deferred && this.rules.isIgnored(child, true)) {
          deferred.push(child);
          continue;
        }
        const old = this.tree.entries.get(child);
        if (old && old.kind !== 'dir') this.tree.set(child, undefined, outcome);
        this.tree.set(child, { kind: 'dir', ino: stats.ino }, outcome);
        if (!(await this.walk(child, lookedAt, deferred, outcome))) return false;
        continue;
      }
      let entry: TreeEntry | undefined;
      try {
        entry = await this.entryFor(child, stats, lookedAt);
      } catch (error) {
        if (!(error instanceof TooBigError)) throw error;
        this.refused = error.size;
        return false;
      }
      if (!entry) continue;
      if (this.tree.entries.get(child)?.kind === 'dir') this.tree.removeTree(child, outcome);
      this.tree.set(child, entry, outcome);
      if (this.overCap()) return false;
    }
    return true;
  }

  /**
   * Walks folder `rel` within what is left of the caps. When it does not fit it is left out whole
   * (never half tracked): its entries leave the index without being reported as deleted, and the
   * reason is returned.
   */
  private async tryWalk(
    rel: string,
    stats: Stats,
    lookedAt: number,
    outcome: ScanOutcome | undefined,
  ): Promise<string | undefined> {
    const old = this.tree.entries.get(rel);
    if (old && old.kind !== 'dir') this.tree.set(rel, undefined, outcome);
    this.tree.set(rel, { kind: 'dir', ino: stats.ino }, outcome);
    const fits = await this.walk(rel, lookedAt, undefined, outcome);
    if (fits && !this.overCap()) return undefined;
    this.watch?.removeUnder(rel);
    for (const path of [...this.tree.entries.keys()]) {
      if (path === rel || path.startsWith(`${rel}/`)) this.tree.set(path, undefined, undefined);
    }
    if (outcome) {
      for (const path of [...outcome.changes.keys()]) {
        if (path === rel || path.startsWith(`${rel}/`)) outcome.changes.delete(path);
      }
      if (old && old.kind !== 'dir') outcome.changes.set(rel, { before: old, after: undefined });
    }
    const ignored = this.rules.isIgnored(rel, true);
    const reason =
      `${rel}/ (${ignored ? 'ignored by .gitignore; ' : ''}with it the project would pass the ` +
      `tracking cap of ${this.limits.maxFiles} files / ${formatBytes(this.limits.maxBytes)})`;
    this.tree.leftOut.set(rel, reason);
    return reason;
  }

  /** A folder that appeared, or must be looked at again, between full walks. */
  private async walkSubtree(
    rel: string,
    stats: Stats,
    outcome: ScanOutcome,
    lookedAt: number,
  ): Promise<void> {
    // Start from nothing below it: what is found is re-added (unchanged entries compare equal).
    const prior = new Map<string, TreeEntry>();
    for (const [path, entry] of this.tree.entries) {
      if (path.startsWith(`${rel}/`)) prior.set(path, entry);
    }
    for (const path of prior.keys()) this.tree.set(path, undefined, outcome);
    const saved = this.prior;
    this.prior = prior;
    try {
      const reason = await this.tryWalk(rel, stats, lookedAt, outcome);
      if (reason) outcome.leftOut.set(rel, reason);
    } finally {
      this.prior = saved;
    }
  }

  private overCap(): boolean {
    return this.tree.files > this.limits.maxFiles || this.tree.bytes > this.limits.maxBytes;
  }

  /** The root itself was reported without a name: compare its listing with the index. */
  private async relist(rel: string, outcome: ScanOutcome, lookedAt: number): Promise<void> {
    let names: string[];
    try {
      names = this.listNames(rel);
    } catch {
      return;
    }
    const present = new Set(names.map((n) => (rel === '' ? n : `${rel}/${n}`)));
    for (const path of this.tree.entries.keys()) {
      const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      if (parent === rel && !present.has(path)) this.tree.removeTree(path, outcome);
    }
    for (const child of present) {
      if (child.endsWith('/.git') || child === '.git' || this.isSkipped(child)) continue;
      if (this.tree.leftOutAbove(child) !== undefined) continue;
      await this.look(child, outcome, lookedAt, false);
    }
  }

  /**
   * The names in folder `rel`. A name that is not valid UTF-8 cannot be named as a string (Node
   * would give U+FFFD, which names no file): it is stated as not tracked rather than missed.
   */
  private listNames(rel: string): string[] {
    const raw = readdirSync(this.abs(rel), { encoding: 'buffer' });
    const prefix = rel === '' ? '' : `${rel}/`;
    for (const key of [...this.tree.unreadable.keys()]) {
      if (key.startsWith(prefix) && key.endsWith(BAD_NAME_MARK)) this.tree.unreadable.delete(key);
    }
    const names: string[] = [];
    for (const bytes of raw) {
      const name = bytes.toString('utf8');
      if (Buffer.from(name, 'utf8').equals(bytes)) {
        names.push(name);
        continue;
      }
      const shown = `${prefix}${escapeName(bytes)}`;
      this.tree.unreadable.set(
        `${shown}${BAD_NAME_MARK}`,
        `${shown} (name is not valid UTF-8; not tracked)`,
      );
    }
    return names;
  }

  private isSkipped(rel: string): boolean {
    const parts = rel.split('/');
    if (parts.includes('.git')) return true;
    for (const skipped of this.skip)
      if (rel === skipped || rel.startsWith(`${skipped}/`)) return true;
    return false;
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : join(this.root, rel);
  }
}

/** Marks an `unreadable` key as a name that is not UTF-8 (no real path ends with a NUL). */
const BAD_NAME_MARK = '\0';

/** A raw name with every byte outside printable ASCII as \xNN. */
export function escapeName(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    out +=
      byte >= 0x20 && byte < 0x7f && byte !== 0x5c
        ? String.fromCharCode(byte)
        : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function depth(rel: string): number {
  let n = 0;
  for (const c of rel) if (c === '/') n += 1;
  return n;
}
