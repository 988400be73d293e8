// The undo log (issue 4): before every write, what the file looked like is recorded against the
// tool call id; `revert(callId)` puts it back unless the file changed since the call wrote it.
// The log is an append-only JSONL file plus a blob folder inside the session's data folder, so a
// reopened session can still undo.
import { createHash } from 'node:crypto';
import { appendFile, lstat, mkdir, readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { WriteJournal } from '../tools/tool';
import {
  BlobStore,
  MAX_IMAGE_BYTES,
  captureImage,
  restoreImage,
  sameImage,
  type FileImage,
} from './file-image';
import { UnverifiedPathError } from './verified-fs';

/** A state handed in by a caller that already has the bytes (the shell snapshot). */
export type ImageSource =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly content: Uint8Array; readonly mode: number }
  | { readonly kind: 'symlink'; readonly target: string };

export interface RevertedFile {
  readonly path: string;
  readonly action: 'restored' | 'deleted';
}

export type RevertResult =
  | {
      readonly ok: true;
      readonly callId: string;
      readonly files: readonly RevertedFile[];
      readonly message: string;
    }
  | {
      readonly ok: false;
      readonly callId: string;
      readonly reason: string;
      readonly conflicts: readonly string[];
    };

export type RevertTurnResult =
  | {
      readonly ok: true;
      readonly reverted: readonly string[];
      /** Every file put back, in the order it was (newest call first). */
      readonly files: readonly RevertedFile[];
      readonly message: string;
    }
  | {
      readonly ok: false;
      /** Calls reverted before the failure (newest first). */
      readonly reverted: readonly string[];
      readonly failedCallId: string;
      readonly reason: string;
    };

type LogLine =
  | {
      type: 'before';
      seq: number;
      callId: string;
      path: string;
      image: FileImage;
      keepDir?: string;
    }
  | { type: 'after'; callId: string; path: string; image: FileImage }
  | { type: 'reverted'; callId: string };

interface PathRecord {
  before: FileImage;
  after?: FileImage;
  keepDir?: string;
}

interface CallRecord {
  seq: number;
  files: Map<string, PathRecord>;
  reverted: boolean;
}

/**
 * Opens (or creates) the journal kept in `dir`, e.g. `<project data folder>/journal`, for the
 * project whose real path is `root`: every path it records or restores is inside `root`, and
 * is read and written only through verified-fs.ts.
 */
export async function openFileJournal(dir: string, root: string): Promise<FileJournal> {
  const journal = new FileJournal(dir, await realpath(root));
  await journal.load();
  return journal;
}

export class FileJournal implements WriteJournal {
  private readonly calls = new Map<string, CallRecord>();
  private readonly blobs: BlobStore;
  private readonly logPath: string;
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();

  /** Prefer `openFileJournal`, which also loads what an earlier run recorded. */
  constructor(
    readonly dir: string,
    readonly root: string,
  ) {
    this.blobs = new BlobStore(join(dir, 'blobs'));
    this.logPath = join(dir, 'journal.jsonl');
  }

  async load(): Promise<void> {
    const text = await readFile(this.logPath, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        continue; // A line cut by a crash: everything before it is still good.
      }
      this.apply(entry);
    }
  }

  recordBefore(absPath: string, callId: string): Promise<void> {
    return this.serial(async () => {
      if (this.calls.get(callId)?.files.has(absPath)) return; // The first image is the "before".
      const image = await captureImage(this.root, absPath, this.blobs);
      const keepDir = image.kind === 'absent' ? await nearestExistingDir(absPath) : undefined;
      await this.append({ type: 'before', seq: ++this.seq, callId, path: absPath, image, keepDir });
    });
  }

  recordAfter(absPath: string, callId: string): Promise<void> {
    return this.serial(async () => {
      if (!this.calls.get(callId)?.files.has(absPath)) return;
      const image = await captureImage(this.root, absPath);
      await this.append({ type: 'after', callId, path: absPath, image });
    });
  }

  /**
   * Records a change someone else observed (the shell snapshot): the state before, and the state
   * after (`'current'` = take it from the disk now, exact mode included).
   */
  recordChange(
    callId: string,
    absPath: string,
    before: ImageSource,
    after: ImageSource | 'current',
  ): Promise<void> {
    return this.serial(async () => {
      if (this.calls.get(callId)?.files.has(absPath)) return;
      const beforeImage = await this.imageOf(before, true);
      const afterImage =
        after === 'current'
          ? await captureImage(this.root, absPath)
          : await this.imageOf(after, false);
      await this.append({
        type: 'before',
        seq: ++this.seq,
        callId,
        path: absPath,
        image: beforeImage,
      });
      await this.append({ type: 'after', callId, path: absPath, image: afterImage });
    });
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

  revert(callId: string): Promise<RevertResult> {
    return this.serial(() =>
      this.revertNow(callId).catch((error: unknown): RevertResult => {
        if (!(error instanceof UnverifiedPathError)) throw error;
        return { ok: false, callId, reason: `Not reverted: ${error.message}.`, conflicts: [] };
      }),
    );
  }

  /** Reverts the calls of one turn, newest first; stops at the first one that cannot be reverted. */
  async revertTurn(callIds: readonly string[]): Promise<RevertTurnResult> {
    const ordered = callIds
      .filter((id) => this.hasChanges(id))
      .sort((a, b) => (this.calls.get(b)?.seq ?? 0) - (this.calls.get(a)?.seq ?? 0));
    const reverted: string[] = [];
    // A file several calls changed is listed once, with what the oldest call's undo did to it.
    const files = new Map<string, RevertedFile>();
    for (const callId of ordered) {
      const result = await this.revert(callId);
      if (!result.ok) return { ok: false, reverted, failedCallId: callId, reason: result.reason };
      reverted.push(callId);
      for (const file of result.files) {
        files.delete(file.path);
        files.set(file.path, file);
      }
    }
    const message =
      reverted.length === 0
        ? 'Nothing to revert in this turn.'
        : `Reverted ${reverted.length} call(s).`;
    return { ok: true, reverted, files: [...files.values()], message };
  }

  /** The paths `callIds` would put back if reverted now (those with changes not yet undone). */
  pendingPaths(callIds: readonly string[]): string[] {
    const paths = new Set<string>();
    for (const id of callIds)
      if (this.hasChanges(id)) this.pathsOf(id).forEach((p) => paths.add(p));
    return [...paths];
  }

  /**
   * Every path the calls whose ids start with `prefix` (one session's) touched, with the state
   * it had before the first of them: the session's start.
   */
  firstImages(prefix: string): { path: string; before: FileImage; keepDir?: string }[] {
    const first = new Map<string, { seq: number; record: PathRecord }>();
    for (const [callId, call] of this.calls) {
      if (!callId.startsWith(prefix)) continue;
      for (const [path, record] of call.files) {
        const known = first.get(path);
        if (!known || call.seq < known.seq) first.set(path, { seq: call.seq, record });
      }
    }
    return [...first.entries()].map(([path, { record }]) => ({
      path,
      before: record.before,
      ...(record.keepDir !== undefined ? { keepDir: record.keepDir } : {}),
    }));
  }

  /** The content a kept file image had (for diffs against the session's start). */
  contentOf(image: FileImage): Promise<Buffer> | null {
    return image.kind === 'file' ? this.blobs.get(image.sha256) : null;
  }

  /** Puts `path` back to `image` (taken from firstImages), one operation at a time. */
  restore(path: string, image: FileImage, keepDir?: string): Promise<'restored' | 'deleted'> {
    return this.serial(() => restoreImage(this.root, path, image, this.blobs, keepDir));
  }

  private async revertNow(callId: string): Promise<RevertResult> {
    const call = this.calls.get(callId);
    const fail = (reason: string, conflicts: string[] = []): RevertResult => ({
      ok: false,
      callId,
      reason,
      conflicts,
    });
    if (!call || call.files.size === 0)
      return fail(`No file changes were recorded for call ${callId}.`);
    if (call.reverted) return fail(`Call ${callId} was already reverted.`);

    const conflicts: string[] = [];
    const work: [string, PathRecord][] = [];
    for (const [path, record] of call.files) {
      const current = await captureImage(this.root, path);
      if (sameImage(current, record.before)) continue; // Already as it was.
      if (record.before.kind === 'too-large' || record.before.kind === 'other') {
        return fail(
          `${path} was not kept by the journal (${describe(record.before)}), so it cannot be restored.`,
        );
      }
      if (!record.after || !sameImage(current, record.after)) conflicts.push(path);
      else work.push([path, record]);
    }
    if (conflicts.length > 0) {
      return fail(
        `Not reverted: ${conflicts.length} file(s) changed since call ${callId} wrote them: ` +
          `${conflicts.join(', ')}. Revert later calls first, or fix these by hand.`,
        conflicts,
      );
    }
    const files: RevertedFile[] = [];
    for (const [path, record] of work) {
      const action = await restoreImage(this.root, path, record.before, this.blobs, record.keepDir);
      files.push({ path, action });
    }
    await this.append({ type: 'reverted', callId });
    const message =
      files.length === 0
        ? `Call ${callId}: files were already as before.`
        : `Reverted call ${callId}: ` + files.map((f) => `${f.action} ${f.path}`).join(', ');
    return { ok: true, callId, files, message };
  }

  private async imageOf(source: ImageSource, keep: boolean): Promise<FileImage> {
    switch (source.kind) {
      case 'absent':
      case 'symlink':
        return source;
      case 'file': {
        if (source.content.length > MAX_IMAGE_BYTES)
          return { kind: 'too-large', size: source.content.length };
        const sha256 = keep
          ? await this.blobs.put(source.content)
          : createHash('sha256').update(source.content).digest('hex');
        return { kind: 'file', sha256, size: source.content.length, mode: source.mode };
      }
    }
  }

  private async append(entry: LogLine): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await appendFile(this.logPath, JSON.stringify(entry) + '\n', { mode: 0o600 });
    this.apply(entry);
  }

  private apply(entry: LogLine): void {
    switch (entry.type) {
      case 'before': {
        this.seq = Math.max(this.seq, entry.seq);
        const call = this.calls.get(entry.callId) ?? {
          seq: entry.seq,
          files: new Map(),
          reverted: false,
        };
        if (!call.files.has(entry.path)) {
          call.files.set(entry.path, { before: entry.image, keepDir: entry.keepDir });
        }
        this.calls.set(entry.callId, call);
        return;
      }
      case 'after': {
        const record = this.calls.get(entry.callId)?.files.get(entry.path);
        if (record) record.after = entry.image;
        return;
      }
      case 'reverted': {
        const call = this.calls.get(entry.callId);
        if (call) call.reverted = true;
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

async function nearestExistingDir(path: string): Promise<string> {
  let dir = dirname(path);
  while (dir !== dirname(dir)) {
    if (await lstat(dir).catch(() => undefined)) return dir;
    dir = dirname(dir);
  }
  return dir;
}

function describe(image: FileImage): string {
  return image.kind === 'too-large'
    ? `${image.size} bytes, above the size limit`
    : 'not a regular file';
}
