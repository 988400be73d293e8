// Writes a file so that a reader (or a crash) sees either the old content or the new, never half:
// a temp file in the same folder, then rename over the target. Renaming replaces the directory
// entry, so a hard link elsewhere keeps the old content instead of being written through.
// Only for Tandem's own data folder (journal blobs), which the agent cannot reach: it trusts the
// path. Project files are written with writeFileVerified (verified-fs.ts).
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode for the result; default: the existing file's mode, else 0o666 minus umask. */
  readonly mode?: number;
  /** Create missing parent folders (default true). */
  readonly createParents?: boolean;
}

export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(path);
  if (options.createParents !== false) await mkdir(dir, { recursive: true });
  const existing = await stat(path).catch(() => undefined);
  const mode = options.mode ?? (existing ? existing.mode & 0o7777 : undefined);
  const temp = join(dir, `.${basename(path)}.tandem-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode ?? 0o666);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; chmod sets the exact mode the file had.
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    if (existing?.isDirectory()) throw new Error(`${path} is a folder, not a file`);
    throw error;
  }
}
