// The undo log (issue 4): what every file looked like before a tool call changed it, kept against
// the call id, so `revert(callId)` can put it back unless the file changed again since. It is a
// write-ahead journal (issue 10 item 6): an intent is on disk before a change happens, and
// `reconcile()` settles interrupted intents when the project is opened again. Content lives in the
// object store shared with change tracking; the log is journal.jsonl in `dir`.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { WriteJournal } from '../tools/tool';
import { ensurePrivateDir } from '../store/private-files';
import { writeFileAtomic } from './atomic-write';
import { captureImage, relativeName, sameImage, type FileImage } from './file-image';
import { JournalLog, loadJournalLog } from './journal-log';
import type { CommandFile, JournalRecord } from './journal-records';
import { revertCall, type RevertResult } from './journal-revert';
import { ObjectStore } from './object-store';

export type { RevertResult, RevertedFile } from './journal-revert';

export type RevertTurnResult =
  | { readonly ok: true; readonly reverted: readonly string[]; readonly message: string }
  | {
      readonly ok: false;
      /** Calls reverted before the failure (newest first). */
      readonly reverted: readonly string[];
      readonly failedCallId: string;
      readonly reason: string;
    };

export interface PathRecord {
  before: FileImage;
  after?: FileImage;
  keepDir?: string;
  /** A write announced and not (yet) completed. */
  intent?: { readonly sha256: string; readonly size: number; readonly temp: string };
}

export interface CommandState {
  ended: boolean;
  notTracked: readonly string[];
  recovered: boolean;
  untracked?: string;
}

export interface CallRecord {
  seq: number;
  files: Map<string, PathRecord>;
  reverted: boolean;
  command?: CommandState;
  /** Temp names of a revert that started; cleared when it finished. */
  revertTemps?: readonly string[];
}

/** What reconcile found for a call that was interrupted by a crash. */
export type Interrupted =
  | { readonly kind: 'command'; readonly callId: string }
  | {
      readonly kind: 'write';
      readonly callId: string;
      readonly path: string;
      readonly outcome: 'completed' | 'not-run' | 'unknown';
    }
  | { readonly kind: 'revert'; readonly callId: string };

export interface FileJournalOptions {
  /** The journal's folder, e.g. `<project data>/journal`. */
  readonly dir: string;
  /** Real path of the project folder: undo never writes outside it. */
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
  readonly calls = new Map<string, CallRecord>();
  /** Lines skipped when loading (not valid records). */
  skippedLines = 0;
  /** What `reconcile()` found, by call. */
  readonly interrupted = new Map<string, Interrupted[]>();
  private readonly log: JournalLog;
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FileJournalOptions) {
    this.folder = options.folder;
    if (!options.readOnly) ensurePrivateDir(options.dir);
    this.objects = options.objects ?? new ObjectStore(join(options.dir, 'objects'));
    this.log = new JournalLog(options.dir);
  }

  get readOnly(): string | undefined {
    return this.options.readOnly;
  }

  load(): void {
    if (!this.options.readOnly) migrateLegacyBlobs(this.options.dir, this.objects);
    const loaded = loadJournalLog(this.options.dir);
    this.skippedLines = loaded.skipped;
    for (const record of loaded.records) this.apply(record);
  }

  /**
   * Settles what a crash interrupted: a write whose file is already new is completed, one whose
   * file is still old is dropped, temps are deleted. Commands without an end are returned for the
   * change tracker to measure. Run once, on open, by the process that owns the project.
   */
  reconcile(): Promise<Interrupted[]> {
    return this.serial(async () => {
      if (this.options.readOnly) return [];
      const found: Interrupted[] = [];
      for (const [callId, call] of this.calls) {
        for (const [path, record] of call.files) {
          if (!record.intent) continue;
          removeTemp(record.intent.temp);
          const current = await captureImage(this.folder, path, this.objects, false);
          const image = current.ok ? current.image : undefined;
          let outcome: 'completed' | 'not-run' | 'unknown' = 'unknown';
          if (image?.kind === 'file' && image.sha256 === record.intent.sha256) {
            this.append({ type: 'write-done', callId, path, after: image }, false);
            outcome = 'completed';
          } else if (image && sameImage(image, record.before)) {
            this.append({ type: 'write-abandoned', callId, path }, false);
            outcome = 'not-run';
          }
          found.push({ kind: 'write', callId, path, outcome });
        }
        if (call.revertTemps) {
          for (const temp of call.revertTemps) removeTemp(temp);
          this.append({ type: 'revert-interrupted', callId }, false);
          found.push({ kind: 'revert', callId });
        }
        if (call.command && !call.command.ended) found.push({ kind: 'command', callId });
      }
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
      if (this.calls.get(callId)?.files.has(absPath)) return;
      const image = await this.keep(absPath);
      const keepDir = image.kind === 'absent' ? nearestExistingDir(absPath) : undefined;
      this.append({ type: 'before', seq: ++this.seq, callId, path: absPath, image, keepDir }, true);
    });
  }

  recordAfter(absPath: string, callId: string): Promise<void> {
    return this.serial(async () => {
      if (!this.calls.get(callId)?.files.has(absPath)) return;
      const image = await this.look(absPath);
      this.append({ type: 'after', callId, path: absPath, image }, false);
    });
  }

  /**
   * Writes `content` to `absPath` through the journal: the before-image is stored and an intent
   * naming the planned content and the temp file is on disk before the rename; completion after.
   */
  write(absPath: string, callId: string, content: string | Uint8Array): Promise<void> {
    return this.serial(async () => {
      this.writable();
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const temp = join(
        dirname(absPath),
        `.${basename(absPath)}.tandem-${randomBytes(6).toString('hex')}.tmp`,
      );
      const existing = this.calls.get(callId)?.files.get(absPath);
      const before = existing?.before ?? (await this.keep(absPath));
      const keepDir = existing
        ? existing.keepDir
        : before.kind === 'absent'
          ? nearestExistingDir(absPath)
          : undefined;
      const planned = { sha256: sha256Of(bytes), size: bytes.length };
      this.append(
        {
          type: 'write-intent',
          seq: ++this.seq,
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
        await writeFileAtomic(absPath, bytes, { tempPath: temp });
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
      this.append({ type: 'command-start', seq: ++this.seq, callId, at: Date.now() }, false);
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
    for (const [callId, call] of this.calls) {
      if (!callId.startsWith(prefix)) continue;
      if (call.revertTemps || (call.command && !call.command.ended)) return true;
      for (const record of call.files.values()) if (record.intent) return true;
    }
    return false;
  }

  /** Whether `callId` changed anything that can be reverted now. */
  hasChanges(callId: string): boolean {
    const call = this.calls.get(callId);
    return call !== undefined && !call.reverted && call.files.size > 0;
  }

  /** Absolute paths the call touched. */
  pathsOf(callId: string): string[] {
    return [...(this.calls.get(callId)?.files.keys() ?? [])];
  }

  /** Every object a record still needs (for garbage collection of the store). */
  referencedObjects(): Set<string> {
    const keep = new Set<string>();
    const add = (image: FileImage | undefined): void => {
      if (image?.kind === 'file') keep.add(image.sha256);
    };
    for (const call of this.calls.values()) {
      for (const record of call.files.values()) {
        add(record.before);
        add(record.after);
      }
    }
    return keep;
  }

  revert(callId: string): Promise<RevertResult> {
    return this.serial(async () => {
      const call = this.calls.get(callId);
      if (call && this.options.readOnly) {
        return { ok: false, callId, reason: this.options.readOnly, conflicts: [] };
      }
      return revertCall(callId, call, {
        folder: this.folder,
        objects: this.objects,
        append: (record, durable) => this.append(record, durable),
      });
    });
  }

  /** Reverts the calls of one turn, newest first; stops at the first one that cannot be reverted. */
  async revertTurn(callIds: readonly string[]): Promise<RevertTurnResult> {
    const ordered = callIds
      .filter((id) => this.hasChanges(id))
      .sort((a, b) => (this.calls.get(b)?.seq ?? 0) - (this.calls.get(a)?.seq ?? 0));
    const reverted: string[] = [];
    for (const callId of ordered) {
      const result = await this.revert(callId);
      if (!result.ok) return { ok: false, reverted, failedCallId: callId, reason: result.reason };
      reverted.push(callId);
    }
    const message =
      reverted.length === 0
        ? 'Nothing to revert in this turn.'
        : `Reverted ${reverted.length} call(s).`;
    return { ok: true, reverted, message };
  }

  close(): void {
    this.log.close();
  }

  /** Project-relative name for messages. */
  nameOf(absPath: string): string {
    return relativeName(this.folder, absPath);
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
    this.apply(record);
  }

  private apply(record: JournalRecord): void {
    const callOf = (callId: string, seq: number): CallRecord => {
      let call = this.calls.get(callId);
      if (!call) {
        call = { seq, files: new Map(), reverted: false };
        this.calls.set(callId, call);
      }
      return call;
    };
    switch (record.type) {
      case 'before': {
        this.seq = Math.max(this.seq, record.seq);
        const call = callOf(record.callId, record.seq);
        if (!call.files.has(record.path)) {
          call.files.set(record.path, { before: record.image, keepDir: record.keepDir });
        }
        return;
      }
      case 'after': {
        const file = this.calls.get(record.callId)?.files.get(record.path);
        if (file) file.after = record.image;
        return;
      }
      case 'write-intent': {
        this.seq = Math.max(this.seq, record.seq);
        const call = callOf(record.callId, record.seq);
        const intent = { ...record.planned, temp: record.temp };
        const file = call.files.get(record.path);
        if (file)
          file.intent = intent; // A second write in one call: the first before stays.
        else
          call.files.set(record.path, { before: record.before, keepDir: record.keepDir, intent });
        return;
      }
      case 'write-done': {
        const file = this.calls.get(record.callId)?.files.get(record.path);
        if (file) {
          file.after = record.after;
          delete file.intent;
        }
        return;
      }
      case 'write-abandoned':
        this.calls.get(record.callId)?.files.delete(record.path);
        return;
      case 'command-start': {
        this.seq = Math.max(this.seq, record.seq);
        const call = callOf(record.callId, record.seq);
        call.command = { ended: false, notTracked: [], recovered: false };
        return;
      }
      case 'command-end': {
        const call = callOf(record.callId, ++this.seq);
        call.command = {
          ended: true,
          notTracked: record.notTracked,
          recovered: record.recovered === true,
          ...(record.untracked !== undefined ? { untracked: record.untracked } : {}),
        };
        for (const file of record.files) {
          if (call.files.has(file.path)) continue;
          call.files.set(file.path, {
            before: file.before,
            after: file.after,
            keepDir: file.keepDir,
          });
        }
        return;
      }
      case 'revert-start': {
        const call = this.calls.get(record.callId);
        if (call) call.revertTemps = record.temps;
        return;
      }
      case 'reverted': {
        const call = this.calls.get(record.callId);
        if (call) {
          call.reverted = true;
          delete call.revertTemps;
        }
        return;
      }
      case 'revert-interrupted': {
        const call = this.calls.get(record.callId);
        if (call) delete call.revertTemps;
        return;
      }
    }
  }

  /** One operation at a time, so images and log lines never interleave. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function nearestExistingDir(path: string): string {
  let dir = dirname(path);
  while (dir !== dirname(dir)) {
    if (lstatSync(dir, { throwIfNoEntry: false })) return dir;
    dir = dirname(dir);
  }
  return dir;
}

/** Deletes a temp file the journal named, if it is still there and still a plain file. */
function removeTemp(temp: string): void {
  const stats = lstatSync(temp, { throwIfNoEntry: false });
  if (stats?.isFile()) unlinkSync(temp);
}

/** Journals before the shared store kept their content in `<dir>/blobs` (same addressing). */
function migrateLegacyBlobs(dir: string, objects: ObjectStore): void {
  const legacy = join(dir, 'blobs');
  if (!existsSync(legacy)) return;
  for (const fan of readdirSync(legacy)) {
    for (const name of readdirSync(join(legacy, fan))) {
      if (!/^[0-9a-f]{64}$/.test(name) || objects.has(name)) continue;
      ensurePrivateDir(dirname(objects.pathOf(name)));
      renameSync(join(legacy, fan, name), objects.pathOf(name));
    }
  }
  rmSync(legacy, { recursive: true, force: true });
}
