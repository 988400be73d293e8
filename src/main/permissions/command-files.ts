// The project files a command names (`sh run.sh`, `python tools/x.py`, `./build.sh`): a card for
// the command was answered on them as they were, so their content is part of what it approved.
// A turn's cards are answered together, before the calls ahead of them ran: one of those may
// rewrite the script a later, already allowed command runs (see the approval fingerprint).
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandPart } from '../../shared/tool-types';
import { snapshotFile } from './approval-hash';

/** Words looked at, and the size of a file whose content is read (bigger ones by size only). */
const MAX_WORDS = 64;
const MAX_READ_BYTES = 1_000_000;

/**
 * Content (or size and time, when large) of each regular project file the command names; with
 * `same`, of exactly those files (a key of an earlier answer), 'gone' for one no longer there. A
 * file made after the card (by a call ahead whose own card or start showed it) is not news.
 */
export async function namedFileContents(
  folder: string,
  parts: readonly CommandPart[],
  same?: readonly string[],
): Promise<Record<string, string>> {
  const words = same ?? [...new Set(parts.flatMap((part) => part.argv))].slice(0, MAX_WORDS);
  const found: Record<string, string> = {};
  for (const word of words) {
    if (word === '' || word.startsWith('-')) continue;
    const abs = path.resolve(folder, word);
    const relative = path.relative(folder, abs);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    let stat;
    try {
      stat = await lstat(abs);
    } catch {
      stat = undefined;
    }
    if (!stat?.isFile()) {
      if (same) found[relative] = 'gone';
      continue;
    }
    found[relative] =
      stat.size > MAX_READ_BYTES
        ? `large: ${stat.size} bytes, modified ${stat.mtimeMs}`
        : ((await snapshotFile(abs)) ?? 'gone');
  }
  return found;
}
