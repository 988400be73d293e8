// Content-addressed copies of project files, as they were (the before-images of undo and the
// baseline of change tracking). Byte-exact: no filters, no line-ending or attribute handling.
// An object is written to a temp file in the store and renamed to its sha256, so a crash leaves
// either no object or a whole one; temps are swept when the store opens. Big files are copied as
// a stream, never loaded whole (issue 10 item 8). Project files are opened only through the
// verified modules (verified-fs.ts, verified-dir-sync.ts); the store's own folder is Tandem's and
// uses plain calls.
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, openPrivateFile } from '../store/private-files';
import { openForReadVerifiedSync, type OpenedFileSync } from './verified-dir-sync';

/** Files up to this size are read whole and diffed; above it they are streamed and compared by hash. */
export const BIG_FILE_BYTES = 8 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** A file larger than the room the caller has left for it: nothing of it was copied. */
export class TooBigError extends Error {
  constructor(readonly size: number) {
    super(`${size} bytes is more than the room left`);
  }
}

export interface StoredContent {
  readonly sha256: string;
  readonly size: number;
  /** The file's stat when it was opened. */
  readonly stats: Stats;
  /** False when the file changed while it was read (the copy may mix old and new). */
  readonly stable: boolean;
}

export class ObjectStore {
  private readonly tmpDir: string;
  private readonly fans = new Set<string>();

  constructor(readonly root: string) {
    this.tmpDir = join(root, 'tmp');
    ensurePrivateDir(this.tmpDir);
  }

  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not an object id: ${sha256}`);
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  has(sha256: string): boolean {
    return existsSync(this.pathOf(sha256));
  }

  /** Stores bytes; returns their sha256. */
  putBytes(content: Uint8Array): string {
    const sha256 = sha256Hex(content);
    if (this.has(sha256)) return sha256;
    const temp = this.tempPath();
    // The store's folders are private already; 0600 here (a umask can only take bits away).
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeAll(fd, content);
    } finally {
      closeSync(fd);
    }
    this.place(temp, sha256);
    return sha256;
  }

  /**
   * Copies the project file at `path` (a real path inside `root`) into the store (`keep` false:
   * only hashes it). It is opened, then verified (its descriptor is that real path), so a folder
   * swapped for a symlink is refused (UnverifiedPathError), never read through. Undefined when it
   * is gone or not a regular file. A file above `maxBytes` (its size when opened) is not copied
   * at all (TooBigError): a sparse file of a terabyte must not fill the data folder.
   */
  async putFile(
    root: string,
    path: string,
    keep = true,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<StoredContent | undefined> {
    let file: OpenedFileSync;
    try {
      // Synchronous (verified-dir-sync.ts): a first look reads every file of the project, and a
      // promise per system call would cost ten times the calls themselves.
      file = openForReadVerifiedSync(root, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error; // Unreadable or unverifiable: the caller says so.
    }
    try {
      return await this.putOpened(file.fd, keep, maxBytes);
    } finally {
      closeSync(file.fd);
    }
  }

  /**
   * Copies the file open at `fd` into the store (`keep` false: only hashes it); undefined when it
   * is not a regular file. Small files are read whole; big ones stream. Never more than the size
   * at opening is read: a file that grows meanwhile cannot make the copy endless (it is then
   * marked not stable, and read again at the next look).
   */
  async putOpened(
    fd: number,
    keep: boolean,
    maxBytes = Number.POSITIVE_INFINITY,
  ): Promise<StoredContent | undefined> {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    if (stats.size > maxBytes) throw new TooBigError(stats.size);
    if (stats.size <= BIG_FILE_BYTES) {
      const content = readAll(fd, stats.size);
      const sha256 = keep ? this.putBytes(content) : sha256Hex(content);
      return { sha256, size: content.length, stats, stable: unchanged(stats, fstatSync(fd)) };
    }
    const streamed = await this.streamIn(fd, keep, stats.size);
    return { ...streamed, stats, stable: unchanged(stats, fstatSync(fd)) };
  }

  /**
   * The content of a stored object (small objects only; big ones are copied with `copyOut`).
   * Checked like copyOut: what a damaged or crafted store holds never reaches a diff or the model.
   */
  read(sha256: string): Buffer {
    const fd = this.openObjectSync(sha256);
    try {
      const content = readAll(fd, fstatSync(fd).size);
      checkHash(sha256, sha256Hex(content));
      return content;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Streams an object into an open file descriptor; throws, after the copy, when the bytes do not
   * match the object's name (the caller's temp file is then discarded, never renamed into place).
   */
  async copyOut(sha256: string, fd: number): Promise<void> {
    const source = await open(this.pathOf(sha256), OBJECT_FLAGS).catch((error: unknown) => {
      throw notAnObject(sha256, error);
    });
    try {
      if (!(await source.stat()).isFile()) throw notAnObject(sha256);
      const hash = createHash('sha256');
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        hash.update(buffer.subarray(0, bytesRead));
        writeAll(fd, buffer.subarray(0, bytesRead));
      }
      checkHash(sha256, hash.digest('hex'));
    } finally {
      await source.close();
    }
  }

  /** The object, opened only if it is a plain file of the store (no symlink, FIFO or device). */
  private openObjectSync(sha256: string): number {
    let fd: number;
    try {
      fd = openSync(this.pathOf(sha256), OBJECT_FLAGS);
    } catch (error) {
      throw notAnObject(sha256, error);
    }
    if (!fstatSync(fd).isFile()) {
      closeSync(fd);
      throw notAnObject(sha256);
    }
    return fd;
  }

  /** Moves objects an older version kept in `legacy` (same addressing) into this store. */
  adoptLegacy(legacy: string): void {
    if (!existsSync(legacy)) return;
    for (const fan of readdirSync(legacy)) {
      for (const name of readdirSync(join(legacy, fan))) {
        if (!/^[0-9a-f]{64}$/.test(name) || this.has(name)) continue;
        ensurePrivateDir(join(this.root, name.slice(0, 2)));
        renameSync(join(legacy, fan, name), this.pathOf(name));
      }
    }
    rmSync(legacy, { recursive: true, force: true });
  }

  /** Deletes temps a crash left behind. */
  sweepTemps(): number {
    let removed = 0;
    for (const name of readdirSync(this.tmpDir)) {
      rmSync(join(this.tmpDir, name), { force: true });
      removed += 1;
    }
    return removed;
  }

  /** Removes every object not in `keep`; returns how many went. */
  collectGarbage(keep: ReadonlySet<string>): number {
    let removed = 0;
    for (const fan of readdirSync(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(fan)) continue;
      for (const name of readdirSync(join(this.root, fan))) {
        if (keep.has(name)) continue;
        unlinkSync(join(this.root, fan, name));
        removed += 1;
      }
    }
    return removed;
  }

  private async streamIn(
    fd: number,
    keep: boolean,
    limit: number,
  ): Promise<{ sha256: string; size: number }> {
    const temp = this.tempPath();
    const out = keep ? openPrivateFile(temp, 'wx') : undefined;
    const hash = createHash('sha256');
    let size = 0;
    try {
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        const bytesRead = readSync(fd, buffer, 0, Math.min(CHUNK, limit - size), null);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        hash.update(chunk);
        if (out !== undefined) writeAll(out, chunk);
        size += bytesRead;
        // Let the event loop breathe between chunks of a big file.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      if (out !== undefined) closeSync(out);
      rmSync(temp, { force: true });
      throw error;
    }
    const sha256 = hash.digest('hex');
    if (out === undefined) return { sha256, size };
    closeSync(out);
    if (this.has(sha256)) rmSync(temp, { force: true });
    else this.place(temp, sha256);
    return { sha256, size };
  }

  private place(temp: string, sha256: string): void {
    const fan = sha256.slice(0, 2);
    if (!this.fans.has(fan)) {
      ensurePrivateDir(join(this.root, fan));
      this.fans.add(fan);
    }
    renameSync(temp, this.pathOf(sha256));
  }

  private tempPath(): string {
    return join(this.tmpDir, randomBytes(8).toString('hex'));
  }
}

/** An object is a plain file of the store: a symlink is never followed, a FIFO never waited on. */
const OBJECT_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function notAnObject(sha256: string, cause?: unknown): Error {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (cause !== undefined && code !== 'ELOOP') return cause as Error;
  return new Error(`the kept copy ${sha256.slice(0, 12)} is not a file of the object store`);
}

function checkHash(sha256: string, actual: string): void {
  if (actual !== sha256) {
    throw new Error(
      `the kept copy ${sha256.slice(0, 12)} does not match its hash (the data folder is damaged)`,
    );
  }
}

function unchanged(a: Stats, b: Stats): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function readAll(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, buffer, at, size - at, null);
    if (n === 0) break; // Shrank while reading: keep what is there (the caller re-checks stat).
    at += n;
  }
  // A file that grew while reading keeps growing past us; the caller's stat check catches it.
  return at === size ? buffer : buffer.subarray(0, at);
}

export function writeAll(fd: number, content: Uint8Array): void {
  let at = 0;
  while (at < content.length) at += writeSync(fd, content, at, content.length - at);
}

/** The id an object is stored under: its content's sha256, in hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
