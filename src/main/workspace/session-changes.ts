// The changes panel: every file one session changed (by edits, writes or commands, as the
// journal recorded them), diffed from the session's start to the disk now, and put back to the
// start on request. Files back at their start state drop out of the list.
import { relative, resolve, sep } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ChangedFile } from '../../shared/api';
import { diffStats } from './diff-stats';
import { captureImage, MAX_IMAGE_BYTES, sameImage, type FileImage } from './file-image';
import type { FileJournal, RevertedFile } from './file-journal';
import { readEntryVerified } from './verified-fs';

/** A diff past this many characters is cut (the panel is for review, not for a whole dump). */
const MAX_DIFF_CHARS = 200_000;

export async function sessionChanges(
  journal: FileJournal,
  root: string,
  prefix: string,
): Promise<ChangedFile[]> {
  const files: ChangedFile[] = [];
  for (const { path, before } of journal.firstImages(prefix)) {
    const now = await captureImage(root, path);
    if (sameImage(now, before)) continue;
    const rel = relative(root, path);
    const change: ChangedFile['change'] =
      before.kind === 'absent' ? 'added' : now.kind === 'absent' ? 'deleted' : 'modified';
    const blocked =
      before.kind === 'too-large' || before.kind === 'other'
        ? `Tandem did not keep a copy of ${rel} from the session's start (${
            before.kind === 'too-large' ? 'too large' : 'not a regular file'
          }), so it cannot be put back.`
        : null;
    const [oldText, newText] = await Promise.all([
      textOf(journal, before),
      currentText(root, path, now),
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
 * A path the session did not change is refused before anything is touched.
 */
export async function revertSessionFiles(
  journal: FileJournal,
  root: string,
  prefix: string,
  paths: readonly string[],
): Promise<{ ok: true; files: RevertedFile[] } | { ok: false; reason: string }> {
  const known = new Map(journal.firstImages(prefix).map((entry) => [entry.path, entry]));
  const picked = [];
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
  const files: RevertedFile[] = [];
  for (const entry of picked) {
    if (sameImage(await captureImage(root, entry.path), entry.before)) continue;
    const action = await journal.restore(entry.path, entry.before, entry.keepDir);
    files.push({ path: entry.path, action });
  }
  return { ok: true, files };
}

async function textOf(journal: FileJournal, image: FileImage): Promise<string | null> {
  if (image.kind === 'absent') return '';
  const content = journal.contentOf(image);
  if (!content) return null;
  return textOrNull(await content);
}

async function currentText(root: string, path: string, image: FileImage): Promise<string | null> {
  if (image.kind === 'absent') return '';
  if (image.kind !== 'file') return null;
  const read = await readEntryVerified(root, path, { maxBytes: MAX_IMAGE_BYTES });
  return read.kind === 'file' ? textOrNull(read.bytes) : null;
}

/** Text for a diff, or null for a binary file (a NUL byte near the start). */
function textOrNull(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, 8000);
  if (head.includes(0)) return null;
  return Buffer.from(bytes).toString('utf8');
}
