// The changes panel: every file one session changed (by edits, writes or commands, as the
// journal recorded them), diffed from the session's start to the disk now, and put back to the
// start on request. Files back at their start state drop out of the list. The session's start
// is each file's first `before` image among the session's calls (the journal keys calls by
// `<session>/<call>`); content comes from the journal's object store, and every look at and
// write to the project goes through verified folders (file-image.ts).
import { relative, resolve, sep } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ChangedFile } from '../../shared/api';
import { diffStats } from './diff-stats';
import {
  captureImage,
  relativeName,
  restoreImage,
  sameImage,
  unreachable,
  type FileImage,
} from './file-image';
import type { FileJournal, RevertedFile } from './file-journal';
import { UnverifiedPathError, readEntryVerified } from './verified-fs';

/** A diff past this many characters is cut (the panel is for review, not for a whole dump). */
const MAX_DIFF_CHARS = 200_000;
/** Larger files are listed without a diff. */
const MAX_DIFF_FILE_BYTES = 2 * 1024 * 1024;

interface StartImage {
  readonly path: string;
  readonly before: FileImage;
  readonly keepDir: string | undefined;
}

/** Each path the session's calls touched, with its image before the first of them. */
function startImages(journal: FileJournal, prefix: string): StartImage[] {
  const calls = [...journal.calls.entries()]
    .filter(([key]) => key.startsWith(prefix))
    .sort(([, a], [, b]) => a.seq - b.seq);
  const first = new Map<string, StartImage>();
  for (const [, call] of calls) {
    for (const [path, record] of call.files) {
      if (!first.has(path))
        first.set(path, { path, before: record.before, keepDir: record.keepDir });
    }
  }
  return [...first.values()];
}

export async function sessionChanges(journal: FileJournal, prefix: string): Promise<ChangedFile[]> {
  const root = journal.folder;
  const files: ChangedFile[] = [];
  for (const { path, before } of startImages(journal, prefix)) {
    const rel = relative(root, path);
    const now = await captureImage(root, path, journal.objects, false);
    if (!now.ok) {
      // Not reachable through verified folders: listed, never diffed or written.
      files.push({
        path: rel,
        change: 'modified',
        diff: '',
        added: 0,
        removed: 0,
        blocked: now.reason,
      });
      continue;
    }
    if (sameImage(now.image, before)) continue;
    const change: ChangedFile['change'] =
      before.kind === 'absent' ? 'added' : now.image.kind === 'absent' ? 'deleted' : 'modified';
    const blocked =
      before.kind === 'too-large' || before.kind === 'other'
        ? `Tandem did not keep a copy of ${rel} from the session's start (${
            before.kind === 'too-large' ? 'too large' : 'not a regular file'
          }), so it cannot be put back.`
        : null;
    const [oldText, newText] = await Promise.all([
      storedText(journal, before),
      currentText(root, path, now.image),
    ]);
    if (oldText === null || newText === null) {
      files.push({ path: rel, change, diff: '', added: 0, removed: 0, blocked });
      continue;
    }
    const stats = diffStats(oldText, newText);
    let diff = createTwoFilesPatch(rel, rel, oldText, newText, '', '', { context: 3 });
    if (diff.length > MAX_DIFF_CHARS) {
      diff = `${diff.slice(0, MAX_DIFF_CHARS)}\n… the rest of the diff is left out (too long to show)\n`;
    }
    files.push({ path: rel, change, diff, ...stats, blocked });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Puts each of `paths` (relative, from `sessionChanges`) back as it was when the session started.
 * A path the session did not change, or one Tandem kept no copy of, is refused before anything is
 * touched. It runs between the journal's own operations, and stops at a folder it cannot verify,
 * saying what it already put back.
 */
export async function revertSessionFiles(
  journal: FileJournal,
  prefix: string,
  paths: readonly string[],
): Promise<{ ok: true; files: RevertedFile[] } | { ok: false; reason: string }> {
  if (journal.readOnly) return { ok: false, reason: journal.readOnly };
  const root = journal.folder;
  const known = new Map(startImages(journal, prefix).map((entry) => [entry.path, entry]));
  const picked: StartImage[] = [];
  for (const rel of paths) {
    const abs = resolve(root, rel);
    const entry = abs.startsWith(root + sep) ? known.get(abs) : undefined;
    if (!entry) return { ok: false, reason: `${rel} was not changed in this session.` };
    if (entry.before.kind === 'too-large' || entry.before.kind === 'other') {
      return {
        ok: false,
        reason: `Tandem did not keep a copy of ${rel}, so it cannot be put back.`,
      };
    }
    picked.push(entry);
  }
  return journal.exclusive(async () => {
    const files: RevertedFile[] = [];
    for (const entry of picked) {
      const stop = (why: string): { ok: false; reason: string } => {
        const done =
          files.length > 0
            ? ` Already put back: ${files.map((f) => relativeName(root, f.path)).join(', ')}.`
            : ' Nothing was changed.';
        return {
          ok: false,
          reason: `Could not put back ${relativeName(root, entry.path)}: ${why}.${done}`,
        };
      };
      const now = await captureImage(root, entry.path, journal.objects, false);
      if (!now.ok) return stop(now.reason);
      if (sameImage(now.image, entry.before)) continue;
      try {
        const action = await restoreImage(
          root,
          entry.path,
          entry.before,
          journal.objects,
          entry.keepDir,
        );
        files.push({ path: entry.path, action });
      } catch (error) {
        if (error instanceof UnverifiedPathError) return stop(unreachable(root, error));
        return stop((error as Error).message);
      }
    }
    return { ok: true as const, files };
  });
}

async function storedText(journal: FileJournal, image: FileImage): Promise<string | null> {
  if (image.kind === 'absent') return '';
  if (image.kind !== 'file' || image.size > MAX_DIFF_FILE_BYTES) return null;
  if (!journal.objects.has(image.sha256)) return null;
  return textOrNull(journal.objects.read(image.sha256));
}

async function currentText(root: string, path: string, image: FileImage): Promise<string | null> {
  if (image.kind === 'absent') return '';
  if (image.kind !== 'file' || image.size > MAX_DIFF_FILE_BYTES) return null;
  try {
    const read = await readEntryVerified(root, path, { maxBytes: MAX_DIFF_FILE_BYTES });
    return read.kind === 'file' ? textOrNull(read.bytes) : null;
  } catch (error) {
    // A folder that became a symlink since it was looked at: no diff, nothing read through it.
    if (error instanceof UnverifiedPathError) return null;
    throw error;
  }
}

/** Text for a diff, or null for a binary file (a NUL byte near the start). */
function textOrNull(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, 8000);
  if (head.includes(0)) return null;
  return Buffer.from(bytes).toString('utf8');
}
