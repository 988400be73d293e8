// Shell commands are journaled like edits (issue 4), cheaply (issue 15): the tracker keeps an index
// of the project (stat fields and content ids) and byte-exact copies of every file as of the last
// look, in Tandem's data folder. Before an approved command it brings the index up to date (only
// paths the watch saw change are looked at) and writes the command's intent to the journal; after,
// it looks again, and every difference is the command's: recorded in the journal (so `revert`
// undoes it) and described as data for the window and the model. Nothing is filtered or
// normalised; ignored files are tracked while they fit the caps; symlinks are links.
// `prepare()` builds the index when a session opens, not on the first command.
import { isAbsolute, join, relative, sep } from 'node:path';
import type { ChangeReport } from '../../shared/change-report';
import { describeCommandFiles } from './command-changes';
import type { FileJournal, RevertResult } from './file-journal';
import { GitignoreRules } from './gitignore-rules';
import type { CommandFile } from './journal-record';
import { imageOfEntry, sameContent } from './tree-entry';
import { TreeIndexFile } from './tree-index-file';
import { OverCapError, TreeScan, type ScanOutcome } from './tree-scan';
import { TreeWatch } from './tree-watch';

export interface ChangeTrackerOptions {
  /** Real path of the project folder. */
  readonly folder: string;
  /** The tracker's own folder in Tandem's data folder (index, flush file). */
  readonly trackDir: string;
  /** The project's journal; its object store holds the copies. */
  readonly journal: FileJournal;
  /** Cap on tracked bytes (default 1 GiB). */
  readonly maxBytes?: number;
  /** Cap on tracked files (default 50,000). */
  readonly maxFiles?: number;
  /** Absolute paths never tracked (Tandem's data folder when it lies inside the project). */
  readonly skip?: readonly string[];
  /** Use the change watch (default true); false walks the whole project at every look. */
  readonly watch?: boolean;
}

export type SnapshotResult =
  { readonly ok: true } | { readonly ok: false; readonly reason: string };

const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;
const DEFAULT_MAX_FILES = 50_000;
const UNTRACKED_SUFFIX = "so this command's changes are not tracked and cannot be reverted.";
/** Compact the index log when it has this many lines more than a tenth of the index. */
const COMPACT_SLACK = 2000;
const GC_DELAY_MS = 10_000;

export class ChangeTracker {
  private readonly scan: TreeScan;
  private readonly watch: TreeWatch | undefined;
  private readonly indexFile: TreeIndexFile;
  private prepared: Promise<void> | undefined;
  private over: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: string | undefined;
  private slotHeld = false;
  private gcTimer: NodeJS.Timeout | undefined;
  private readonly slotWaiters: (() => void)[] = [];
  /** Looks that walked the whole project after preparation (the watch could not say). */
  walks = 0;
  /** Calls interrupted by a crash whose changes prepare() measured (callId → recovered). */
  readonly recovered = new Set<string>();

  constructor(private readonly options: ChangeTrackerOptions) {
    const skip = new Set<string>();
    for (const path of options.skip ?? []) {
      // Only folders inside the project; a name like "..data" is inside it.
      const rel = relative(options.folder, path);
      if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
        skip.add(rel.split(sep).join('/'));
    }
    this.watch =
      options.watch === false
        ? undefined
        : new TreeWatch(options.folder, join(options.trackDir, 'flush'));
    this.indexFile = new TreeIndexFile(options.trackDir);
    this.scan = new TreeScan(
      options.folder,
      options.journal.objects,
      new GitignoreRules(options.folder),
      {
        maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
        maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      },
      skip,
      this.watch,
    );
  }

  /** How changes are found: through the watch, or by walking (the watch failed or is off). */
  get mode(): 'watch' | 'walk' {
    return this.watch && !this.watch.reason ? 'watch' : 'walk';
  }

  /**
   * Builds the index (from the last one on disk where there is one), starts the watch, measures
   * what a crash interrupted, and drops copies nothing needs. Idempotent; start it early.
   */
  prepare(): Promise<void> {
    if (!this.prepared) {
      const attempt = this.serial(() => this.prepareNow());
      this.prepared = attempt;
      // A failed attempt (an I/O error) is not kept: the next command tries again.
      attempt.catch(() => {
        if (this.prepared === attempt) this.prepared = undefined;
      });
    }
    return this.prepared;
  }

  /** Before an approved command: the index is made current and the intent is on disk. */
  async snapshotBefore(callId: string): Promise<SnapshotResult> {
    await this.acquire();
    try {
      await this.prepare();
      const result = await this.serial(async () => {
        this.persist(await this.update());
        if (this.over) return { ok: false as const, reason: `${this.over}, ${UNTRACKED_SUFFIX}` };
        await this.options.journal.beginCommand(callId);
        this.pending = callId;
        return { ok: true as const };
      });
      if (!result.ok) this.release();
      return result;
    } catch (error) {
      this.release();
      return { ok: false, reason: `No snapshot before this command: ${(error as Error).message}` };
    }
  }

  /**
   * What the command changed since `snapshotBefore(callId)`: recorded in the journal and described.
   * For a call measured earlier (or before a restart) the journal's record is described again.
   */
  async changesSince(callId: string): Promise<ChangeReport> {
    if (this.pending !== callId) {
      return (
        this.reportFor(callId) ?? {
          kind: 'unknown',
          reason: `No snapshot was taken before call ${callId}.`,
        }
      );
    }
    try {
      return await this.serial(async () => {
        this.pending = undefined;
        let outcome: ScanOutcome;
        try {
          outcome = await this.update();
        } catch (error) {
          const reason = `Could not work out what the command changed: ${(error as Error).message}`;
          await this.options.journal.endCommand(callId, [], { untracked: reason });
          return { kind: 'unknown' as const, reason };
        }
        if (this.over) {
          // The command took the project past the cap: its changes are not known, not "none".
          const reason = `${this.over}, ${UNTRACKED_SUFFIX}`;
          await this.options.journal.endCommand(callId, [], { untracked: reason });
          return { kind: 'unknown' as const, reason };
        }
        const files = this.commandFiles(outcome);
        const notTracked = this.notTracked();
        await this.options.journal.endCommand(callId, files, { notTracked });
        this.persist(outcome);
        return this.report(files, notTracked, true, false);
      });
    } finally {
      this.release();
    }
  }

  /** The journal's record of a command, described (after a restart, or asked again). */
  reportFor(callId: string): ChangeReport | undefined {
    const journal = this.options.journal;
    const call = journal.calls.get(callId);
    if (!call?.command?.ended) return undefined;
    if (call.command.untracked) return { kind: 'unknown', reason: call.command.untracked };
    const files: CommandFile[] = [...call.files].map(([path, record]) => ({
      path,
      before: record.before,
      after: record.after ?? { kind: 'other' },
    }));
    return this.report(files, call.command.notTracked, !call.reverted, call.command.recovered);
  }

  /** Undoes the command's changes (refusing on conflicts), through the journal. */
  revert(callId: string): Promise<RevertResult> {
    return this.options.journal.revert(callId);
  }

  async close(): Promise<void> {
    clearTimeout(this.gcTimer);
    await this.queue.catch(() => undefined);
    this.watch?.close();
    if (this.indexFile.pending > 0 && !this.over) {
      this.indexFile.writeBase(this.scan.index, this.scan.leftOut);
    }
    this.indexFile.close();
  }

  private async prepareNow(): Promise<void> {
    const journal = this.options.journal;
    const stored = this.indexFile.load();
    if (stored) this.scan.adopt(stored.entries, stored.leftOut);
    this.watch?.start();
    const interrupted = (await journal.reconcile()).filter((item) => item.kind === 'command');
    let outcome: ScanOutcome | undefined;
    try {
      outcome = await this.scan.full();
      this.over = undefined;
    } catch (error) {
      if (!(error instanceof OverCapError)) throw error;
      this.over = error.message;
    }
    // A command a crash interrupted: what changed since its baseline is its doing (measured now).
    const last = interrupted.at(-1);
    for (const item of interrupted) {
      const files = item === last && outcome ? this.commandFiles(outcome) : [];
      const untracked = this.over ? `${this.over}, ${UNTRACKED_SUFFIX}` : undefined;
      await journal.endCommand(item.callId, files, {
        recovered: true,
        notTracked: this.notTracked(),
        ...(untracked ? { untracked } : {}),
      });
      this.recovered.add(item.callId);
    }
    if (this.over) return;
    this.indexFile.writeBase(this.scan.index, this.scan.leftOut);
    await journal.exclusive(() => journal.objects.sweepTemps());
    // Copies nothing needs any more go later, off the first command's path.
    this.gcTimer = setTimeout(
      () => void this.serial(async () => this.collectGarbage()),
      GC_DELAY_MS,
    );
    this.gcTimer.unref();
  }

  /** Drops copies that neither the index nor any journal record refers to. */
  private collectGarbage(): void {
    const keep = this.options.journal.referencedObjects();
    for (const entry of this.scan.index.values()) if (entry.kind === 'file') keep.add(entry.sha256);
    this.options.journal.objects.collectGarbage(keep);
  }

  /**
   * Brings the index up to date: the watched paths, or a full walk when the watch cannot say.
   * The caller persists the outcome (after the journal record, for a command's after-look).
   */
  private async update(): Promise<ScanOutcome> {
    if (this.over || !this.watch) return this.fullUpdate();
    const dirty = await this.watch.take();
    if (!dirty.ok) return this.fullUpdate();
    try {
      return await this.scan.dirty(dirty.paths);
    } catch (error) {
      // Over the cap (the scan put the index back): the walk says what fits and what does not.
      if (!(error instanceof OverCapError)) throw error;
      return this.fullUpdate();
    }
  }

  private async fullUpdate(): Promise<ScanOutcome> {
    this.walks += 1;
    try {
      const outcome = await this.scan.full();
      this.over = undefined;
      return outcome;
    } catch (error) {
      if (!(error instanceof OverCapError)) throw error;
      this.over = error.message;
      return { changes: new Map(), leftOut: new Map() };
    }
  }

  /** Index changes go to the index log. */
  private persist(outcome: ScanOutcome): void {
    if (outcome.changes.size === 0 && outcome.leftOut.size === 0) return;
    const changes: [string, ReturnType<typeof this.scan.index.get>][] = [];
    for (const [rel, change] of outcome.changes) changes.push([rel, change.after]);
    this.indexFile.append(changes, outcome.leftOut.size > 0 ? this.scan.leftOut : undefined);
    if (this.indexFile.pending > COMPACT_SLACK + this.scan.index.size / 10) {
      this.indexFile.writeBase(this.scan.index, this.scan.leftOut);
    }
  }

  /** The changed files of one look, as journal records (folders are not reported). */
  private commandFiles(outcome: ScanOutcome): CommandFile[] {
    const files: CommandFile[] = [];
    for (const [rel, change] of outcome.changes) {
      if (change.before?.kind === 'dir' && change.after?.kind === 'dir') continue;
      if (sameContent(change.before, change.after)) continue;
      const before = imageOfEntry(change.before);
      const after = imageOfEntry(change.after);
      if (before.kind === 'absent' && after.kind === 'absent') continue; // A folder came or went.
      let keepDir: string | undefined;
      if (before.kind === 'absent') {
        // Folders the command made for it go too when undone; the nearest one it found stays.
        let dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
        while (
          dir !== '' &&
          outcome.changes.get(dir)?.before === undefined &&
          outcome.changes.has(dir)
        )
          dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
        keepDir = dir === '' ? this.options.folder : join(this.options.folder, dir);
      }
      files.push({
        path: join(this.options.folder, rel),
        before,
        after,
        ...(keepDir ? { keepDir } : {}),
      });
    }
    return files;
  }

  private notTracked(): string[] {
    const lines = [...this.scan.leftOut.values(), ...this.scan.unreadable.values()];
    if (lines.length <= 5) return lines;
    return [...lines.slice(0, 5), `and ${lines.length - 5} more`];
  }

  private report(
    files: readonly CommandFile[],
    notTracked: readonly string[],
    revertable: boolean,
    recovered: boolean,
  ): ChangeReport {
    return {
      kind: 'tracked',
      files: describeCommandFiles(this.options.folder, files, this.options.journal.objects),
      revertable: revertable && files.length > 0,
      notTracked,
      ...(recovered ? { recovered: true } : {}),
    };
  }

  /** One command between its before and after look at a time: its changes are its own. */
  private async acquire(): Promise<void> {
    if (!this.slotHeld) {
      this.slotHeld = true;
      return;
    }
    await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
  }

  private release(): void {
    const next = this.slotWaiters.shift();
    if (next) next();
    else this.slotHeld = false;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
