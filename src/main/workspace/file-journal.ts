// The undo log (issue 4): what every file looked like before a tool call changed it, kept against
// the call id, so `revert(callId)` can put it back unless the file changed again since. It is a
// write-ahead journal (issue 10 item 6): an intent is on disk before a change happens, and
// `reconcile()` settles interrupted intents when the project is opened again. Content lives in the
// object store shared with change tracking; the log is journal.jsonl in `dir`. Every look at the
// project, every write and every revert goes through verified-fs.ts (via file-image.ts).
import { randomBytes } from 'node:crypto';
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { WriteJournal } from '../tools/tool';
import { ensurePrivateDir } from '../store/private-files';
import { captureImage, relativeName, sameImage, type FileImage } from './file-image';
import { JournalLog, loadJournalLog } from './journal-log';
import type { CommandFile, JournalRecord } from './journal-record';
import { applyRecord, type CallRecord, type JournalState } from './journal-state';
import { reconcileJournal, type Interrupted } from './journal-reconcile';
import { revertCall, type RevertResult, type RevertedFile } from './journal-revert';
import { ObjectStore, sha256Hex } from './object-store';
import { writeFileVerified } from './verified-fs';

export type { RevertResult, RevertedFile } from './journal-revert';
export type { CallRecord, PathRecord } from './journal-state';
export type { Interrupted } from './journal-reconcile';

export type RevertTurnResult =
  | {
      readonly ok: true;
      readonly reverted: readonly string[];
      /** Every file put back, once each (a file several calls changed: the oldest call's undo). */
      readonly files: readonly RevertedFile[];
      readonly message: string;
    }
  | {
      readonly ok: false;
      /** Calls reverted before the failure (newest first). */
      readonly reverted: readonly string[];
      /** What was put back before the failure (also by the failed call before it stopped). */
      readonly files: readonly RevertedFile[];
      readonly failedCallId: string;
      readonly reason: string;
    };

export interface FileJournalOptions {
  /** The journal's folder, e.g. `<project data>/journal`. */
  readonly dir: string;
  /** The project folder (its real path is used): undo never writes outside it. */
  readonly folder: string;
  /** Shared with change tracking; default `<dir>/objects`. */
  readonly objects?: ObjectStore;
  /** Another process owns the project: load what is there, change nothing. */
  readonly readOnly?: string;
}

/** Opens (or creates) the journal and loads what earlier runs recorded. */
export async function openFileJournal(options: FileJournalOptions): Promise<FileJournal> {
  const journal = new FileJournal(options);
  journal.load();
  return journal;
}

export class FileJournal implements WriteJournal {
  readonly objects: ObjectStore;
  readonly folder: string;
  private readonly state: JournalState = { calls: new Map(), seq: 0 };
  /** Lines skipped when loading (not valid records), one sentence each. */
  loadProblems: readonly string[] = [];
  /** What `reconcile()` found, by call. */
  readonly interrupted = new Map<string, Interrupted[]>();
  private readonly log: JournalLog;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FileJournalOptions) {
    this.folder = realpathSync(options.folder);
    if (!options.readOnly) ensurePrivateDir(options.dir);
    this.objects = options.objects ?? new ObjectStore(join(options.dir, 'objects'));
    this.log = new JournalLog(options.dir);
  }

  /** What was recorded, by call (read-only view for describing and reporting). */
  get calls(): ReadonlyMap<string, CallRecord> {
    return this.state.calls;
  }

  get readOnly(): string | undefined {
    return this.options.readOnly;
  }

  load(): void {
    if (!this.options.readOnly) this.objects.adoptLegacy(join(this.options.dir, 'blobs'));
    const loaded = loadJournalLog(this.options.dir);
    this.loadProblems = loaded.problems;
    for (const record of loaded.records) applyRecord(this.state, record);
  }

  /**
   * Settles what a crash interrupted (see journal-reconcile.ts). Run once, on open, by the process
   * that owns the project.
   */
  reconcile(): Promise<Interrupted[]> {
    return this.serial(async () => {
      if (this.options.readOnly) return [];
      const found = await reconcileJournal(this.state.calls, {
        folder: this.folder,
        objects: this.objects,
        append: (record, durable) => this.append(record, durable),
      });
      for (const item of found) {
        this.interrupted.set(item.callId, [...(this.interrupted.get(item.callId) ?? []), item]);
      }
      return found;
    });
  }

  /** Legacy two-step form (the write itself happens elsewhere): the first image is the "before". */
  recordBefore(absPath: string, callId: string): Promise<void> {
    return this.serial(async () => {
      this.writable();
      if (this.state.calls.get(callId)?.files.has(absPath)) return;
      const image = await this.keep(absPath);
      const keepDir = image.kind === 'absent' ? nearestExistingDir(absPath) : undefined;
      this.append(
        { type: 'before', seq: ++this.state.seq, callId, path: absPath, image, keepDir },
        true,
      );
    });
  }

  recordAfter(absPath: string, callId: string): Promise<void> {
    return this.serial(async () => {
      if (!this.state.calls.get(callId)?.files.has(absPath)) return;
      const image = await this.look(absPath);
      this.append({ type: 'after', callId, path: absPath, image }, false);
    });
  }

  /**
   * Writes `content` to `absPath` (a real path inside the folder) through the journal: the
   * before-image is stored and an intent naming the planned content and the temp file is on disk
   * before the rename; completion after. The write is verified-fs's atomic write in the verified
   * folder, so it refuses (UnverifiedPathError) instead of writing through a swapped folder.
   */
  write(absPath: string, callId: string, content: string | Uint8Array): Promise<void> {
    return this.serial(async () => {
      this.writable();
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const temp = join(
        dirname(absPath),
        `.${basename(absPath)}.tandem-${randomBytes(6).toString('hex')}.tmp`,
      );
      const existing = this.state.calls.get(callId)?.files.get(absPath);
      const before = existing?.before ?? (await this.keep(absPath));
      const keepDir = existing
        ? existing.keepDir
        : before.kind === 'absent'
          ? nearestExistingDir(absPath)
          : undefined;
      const planned = { sha256: sha256Hex(bytes), size: bytes.length };
      this.append(
        {
          type: 'write-intent',
          seq: ++this.state.seq,
          callId,
          path: absPath,
          before,
          planned,
          temp,
          keepDir,
        },
        true,
      );
      try {
        await writeFileVerified(this.folder, absPath, bytes, { tempName: basename(temp) });
      } finally {
        const after = await this.look(absPath);
        this.append({ type: 'write-done', callId, path: absPath, after }, false);
      }
    });
  }

  /**
   * Announces a command that may write, before it starts. Written, not flushed to the disk: a
   * process crash keeps it (the page cache survives), and the 3–10 ms of a flush would double a
   * command's tracking cost; after a power cut the command's changes would count as nobody's.
   */
  beginCommand(callId: string): Promise<void> {
    return this.serial(async () => {
      this.writable();
      this.append({ type: 'command-start', seq: ++this.state.seq, callId, at: Date.now() }, false);
    });
  }

  /** What the command changed (observed by change tracking), or why it could not be tracked. */
  endCommand(
    callId: string,
    files: readonly CommandFile[],
    extra: { notTracked?: readonly string[]; recovered?: boolean; untracked?: string } = {},
  ): Promise<void> {
    return this.serial(async () => {
      this.writable();
      this.append(
        {
          type: 'command-end',
          callId,
          files: [...files],
          notTracked: [...(extra.notTracked ?? [])],
          ...(extra.recovered ? { recovered: true } : {}),
          ...(extra.untracked !== undefined ? { untracked: extra.untracked } : {}),
        },
        false,
      );
    });
  }

  /** Whether a call whose key starts with `prefix` has an intent a crash left unsettled. */
  hasUnsettled(prefix: string): boolean {
    for (const [callId, call] of this.state.calls) {
      if (!callId.startsWith(prefix)) continue;
      if (call.revertTemps || (call.command && !call.command.ended)) return true;
      for (const record of call.files.values()) if (record.intent) return true;
    }
    return false;
  }

  /** Whether `callId` changed anything that can be reverted now. */
  hasChanges(callId: string): boolean {
    const call = this.state.calls.get(callId);
    return call !== undefined && !call.reverted && call.files.size > 0;
  }

  /** Absolute paths the call touched. */
  pathsOf(callId: string): string[] {
    return [...(this.state.calls.get(callId)?.files.keys() ?? [])];
  }

  /** Every object a record still needs (for garbage collection of the store). */
  referencedObjects(): Set<string> {
    const keep = new Set<string>();
    const add = (image: FileImage | undefined): void => {
      if (image?.kind === 'file') keep.add(image.sha256);
    };
    for (const call of this.state.calls.values()) {
      for (const record of call.files.values()) {
        add(record.before);
        add(record.after);
      }
    }
    return keep;
  }

  revert(callId: string): Promise<RevertResult> {
    return this.serial(async () => {
      const call = this.state.calls.get(callId);
      if (call && this.options.readOnly) {
        return { ok: false, callId, reason: this.options.readOnly, conflicts: [] };
      }
      return revertCall(callId, call, {
        folder: this.folder,
        objects: this.objects,
        append: (record, durable) => this.append(record, durable),
        laterChange: (path, seq) => this.laterChange(path, seq),
      });
    });
  }

  /** Reverts the calls of one turn, newest first; stops at the first one that cannot be reverted. */
  async revertTurn(callIds: readonly string[]): Promise<RevertTurnResult> {
    const ordered = callIds
      .filter((id) => this.hasChanges(id))
      .sort((a, b) => (this.state.calls.get(b)?.seq ?? 0) - (this.state.calls.get(a)?.seq ?? 0));
    const reverted: string[] = [];
    // The window tells the model which files were put back (revert-note.ts).
    const files = new Map<string, RevertedFile>();
    const add = (done: readonly RevertedFile[]): void => {
      for (const file of done) {
        files.delete(file.path);
        files.set(file.path, file);
      }
    };
    for (const callId of ordered) {
      const result = await this.revert(callId);
      if (!result.ok) {
        add(result.restored ?? []);
        const put = [...files.values()];
        return { ok: false, reverted, files: put, failedCallId: callId, reason: result.reason };
      }
      reverted.push(callId);
      add(result.files);
    }
    const message =
      reverted.length === 0
        ? 'Nothing to revert in this turn.'
        : `Reverted ${reverted.length} call(s).`;
    return { ok: true, reverted, files: [...files.values()], message };
  }

  close(): void {
    this.log.close();
  }

  /** Runs `work` between the journal's own operations (store upkeep must not race a write). */
  exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    return this.serial(async () => work());
  }

  /** Project-relative name for messages. */
  nameOf(absPath: string): string {
    return relativeName(this.folder, absPath);
  }

  private laterChange(path: string, seq: number): string | undefined {
    for (const [callId, call] of this.state.calls) {
      if (call.seq <= seq || call.reverted) continue;
      const record = call.files.get(path);
      // A write of the same bytes changed nothing: no reason to undo it first.
      if (record && !(record.after && !record.intent && sameImage(record.after, record.before)))
        return callId;
    }
    return undefined;
  }

  private writable(): void {
    if (this.options.readOnly) throw new Error(this.options.readOnly);
  }

  private async keep(absPath: string): Promise<FileImage> {
    const current = await captureImage(this.folder, absPath, this.objects, true);
    if (!current.ok) throw new Error(current.reason);
    return current.image;
  }

  private async look(absPath: string): Promise<FileImage> {
    const current = await captureImage(this.folder, absPath, this.objects, false);
    return current.ok ? current.image : { kind: 'other' };
  }

  private append(record: JournalRecord, durable: boolean): void {
    this.log.append(record, durable);
    applyRecord(this.state, record);
  }

  /** One operation at a time, so images and log lines never interleave. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function nearestExistingDir(path: string): string {
  let dir = dirname(path);
  while (dir !== dirname(dir)) {
    if (lstatSync(dir, { throwIfNoEntry: false })) return dir;
    dir = dirname(dir);
  }
  return dir;
}
