// A loose object (`.git/objects/ab/cdef…`) that is a symlink makes git read another repository's
// object as this one's: `git cat-file -p HASH` prints a file from outside the project. Finding one
// means looking in every object folder, so each folder's answer is kept until its mtime changes
// (adding or replacing an entry changes it): a repeat costs one stat per folder.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const OBJECT_FOLDER = /^[0-9a-f]{2}$/;
const folders = new Map<string, { readonly mtimeMs: number; readonly link: string | undefined }>();

/** The first entry of an object folder that is not a plain file (a symlink, say), if any. */
function oddEntry(folder: string): string | undefined {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isFile()) return path.join(folder, entry.name);
  }
  return undefined;
}

/**
 * The first symlink among `objects`' own entries (an object folder, `pack`, `info` linked
 * elsewhere) or among its loose objects, if any. Unreadable folders count as links: they ask.
 */
export function linkedObject(objects: string): string | undefined {
  let entries;
  try {
    entries = readdirSync(objects, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : objects;
  }
  for (const entry of entries) {
    const file = path.join(objects, entry.name);
    if (entry.isSymbolicLink()) return file;
    if (!entry.isDirectory() || !OBJECT_FOLDER.test(entry.name)) continue;
    try {
      const { mtimeMs } = statSync(file);
      let known = folders.get(file);
      if (known?.mtimeMs !== mtimeMs) {
        known = { mtimeMs, link: oddEntry(file) };
        folders.set(file, known);
      }
      if (known.link) return known.link;
    } catch {
      return file;
    }
  }
  return undefined;
}
