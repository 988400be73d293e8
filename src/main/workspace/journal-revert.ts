// Undo of one call. It restores nothing unless every file is still as the call left it (a file
// changed again since is named, never overwritten or deleted), looks at and writes each path only
// through verified folders (verified-fs.ts: a folder that is or becomes a symlink stops the
// revert, naming the file and why), announces its temp files before it makes them, and checks
// each file once more right before it is written.
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  captureImage,
  relativeName,
  restoreImage,
  sameImage,
  unchangedSince,
  unreachable,
  type FileImage,
} from './file-image';
import type { JournalRecord } from './journal-record';
import type { CallRecord, PathRecord } from './journal-state';
import type { ObjectStore } from './object-store';
import { UnverifiedPathError } from './verified-fs';

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
      /** Files restored before the revert had to stop (empty when it changed nothing). */
      readonly restored?: readonly RevertedFile[];
    };

export interface RevertDeps {
  readonly folder: string;
  readonly objects: ObjectStore;
  readonly append: (record: JournalRecord, durable: boolean) => void;
  /** A call after `seq` that changed `path` and is not undone, if there is one. */
  readonly laterChange: (path: string, seq: number) => string | undefined;
}

export async function revertCall(
  callId: string,
  call: CallRecord | undefined,
  deps: RevertDeps,
): Promise<RevertResult> {
  const fail = (reason: string, conflicts: string[] = []): RevertResult => ({
    ok: false,
    callId,
    reason,
    conflicts,
  });
  if (!call || call.files.size === 0)
    return fail(`No file changes were recorded for call ${callId}.`);
  if (call.reverted) return fail(`Call ${callId} was already reverted.`);

  const { folder, objects, laterChange } = deps;
  const conflicts: string[] = [];
  const blocked: string[] = [];
  const work: [string, PathRecord, BigIntStats | undefined][] = [];
  for (const [path, record] of call.files) {
    // Undo goes back along each file's history: a later call that changed the file and is not
    // undone comes first, even when the file looks as this call left it (or as it was before).
    // Else that call's own undo would later bring back what this one undid, or fail.
    if (laterChange(path, call.seq) !== undefined) {
      conflicts.push(path);
      continue;
    }
    const current = await captureImage(folder, path, objects, false);
    if (!current.ok) {
      blocked.push(`${relativeName(folder, path)}: ${current.reason}`);
      continue;
    }
    if (sameImage(current.image, record.before)) continue; // Already as it was.
    if (record.before.kind === 'too-large' || record.before.kind === 'other') {
      return fail(
        `${path} was not kept by the journal (${describe(record.before)}), so it cannot be restored.`,
      );
    }
    if (!record.after || !sameImage(current.image, record.after)) conflicts.push(path);
    else work.push([path, record, current.stats]);
  }
  if (blocked.length > 0) {
    return fail(
      `Not reverted: undo could not safely reach ${blocked.length} file(s): ${blocked.join('; ')}. ` +
        `Revert the later change first, or fix this by hand. Nothing was changed.`,
    );
  }
  if (conflicts.length > 0) {
    return fail(
      `Not reverted: ${conflicts.length} file(s) changed since call ${callId} wrote them: ` +
        `${conflicts.join(', ')}. Revert later calls first, or fix these by hand.`,
      conflicts,
    );
  }

  // Temp names are on disk before the temps are, so a crash mid-revert leaves nothing behind.
  const temps = new Map<string, string>();
  for (const [path, record] of work) {
    if (record.before.kind === 'file') temps.set(path, tempBeside(path));
  }
  deps.append({ type: 'revert-start', callId, temps: [...temps.values()] }, true);
  const files: RevertedFile[] = [];
  for (const [path, record, seen] of work) {
    const stop = (why: string): RevertResult => {
      deps.append({ type: 'revert-interrupted', callId }, false);
      const done = files.length > 0 ? ` ${describeDone(folder, files)}` : ' Nothing was changed.';
      return {
        ok: false,
        callId,
        reason: `Revert stopped: could not restore ${relativeName(folder, path)}: ${why}.${done}`,
        conflicts: [],
        restored: files,
      };
    };
    // Once more right before the write: it must still be exactly what the call left (a file
    // whose stat is as it was need not be read again).
    if (!seen || !(await unchangedSince(folder, path, seen))) {
      const now = await captureImage(folder, path, objects, false);
      if (!now.ok) return stop(now.reason);
      if (!record.after || !sameImage(now.image, record.after)) {
        return stop('it changed again while undo was running, so it was left as it is');
      }
    }
    try {
      const action = await restoreImage(folder, path, record.before, objects, record.keepDir, {
        temp: temps.get(path),
      });
      files.push({ path, action });
    } catch (error) {
      if (error instanceof UnverifiedPathError) return stop(unreachable(folder, error));
      return stop((error as Error).message);
    }
  }
  deps.append({ type: 'reverted', callId }, false);
  const message =
    files.length === 0
      ? `Call ${callId}: files were already as before.`
      : `Reverted call ${callId}: ` + files.map((f) => `${f.action} ${f.path}`).join(', ');
  return { ok: true, callId, files, message };
}

function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.tandem-${randomBytes(6).toString('hex')}.tmp`);
}

function describeDone(folder: string, files: readonly RevertedFile[]): string {
  return `Already done: ${files.map((f) => `${f.action} ${relativeName(folder, f.path)}`).join(', ')}; revert again after fixing the file to finish.`;
}

function describe(image: FileImage): string {
  return image.kind === 'too-large'
    ? `${image.size} bytes, above the size limit`
    : 'not a regular file';
}
