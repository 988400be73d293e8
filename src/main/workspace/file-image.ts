// What one path looked like at a moment: absent, a file (content kept in a content-addressed
// blob store), or a symlink. The journal compares and restores these. Project files are read and
// written only through verified-fs.ts (`root` is the project's real path); the blob store lives in
// Tandem's own data folder and uses plain atomic writes.
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-write';
import {
  readEntryVerified,
  removeEmptyFoldersVerified,
  removeFileVerified,
  symlinkVerified,
  writeFileVerified,
} from './verified-fs';

export type FileImage =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly sha256: string; readonly size: number; readonly mode: number }
  | { readonly kind: 'symlink'; readonly target: string }
  /** Too large to keep: the change can be shown but not reverted. */
  | { readonly kind: 'too-large'; readonly size: number }
  /** A folder or special file: nothing a file tool writes. */
  | { readonly kind: 'other' };

/** Files above this size are not kept in the journal (their changes cannot be reverted). */
export const MAX_IMAGE_BYTES = 32 * 1024 * 1024;

export class BlobStore {
  constructor(private readonly dir: string) {}

  async put(content: Uint8Array): Promise<string> {
    const sha256 = createHash('sha256').update(content).digest('hex');
    const path = this.pathOf(sha256);
    const present = await lstat(path).catch(() => undefined);
    if (!present) await writeFileAtomic(path, content, { mode: 0o600 });
    return sha256;
  }

  get(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  private pathOf(sha256: string): string {
    return join(this.dir, sha256.slice(0, 2), sha256);
  }
}

/**
 * Captures the current state of `path` (a real path inside `root`); with a store, file content is
 * kept for a later restore.
 */
export async function captureImage(
  root: string,
  path: string,
  store?: BlobStore,
): Promise<FileImage> {
  const read = await readEntryVerified(root, path, { maxBytes: MAX_IMAGE_BYTES });
  switch (read.kind) {
    case 'missing':
      return { kind: 'absent' };
    case 'symlink':
      return { kind: 'symlink', target: read.target };
    case 'too-large':
      return { kind: 'too-large', size: read.size };
    case 'folder':
    case 'other':
      return { kind: 'other' };
    case 'file': {
      const content = read.bytes;
      const sha256 = store
        ? await store.put(content)
        : createHash('sha256').update(content).digest('hex');
      return { kind: 'file', sha256, size: content.length, mode: read.mode };
    }
  }
}

export function sameImage(a: FileImage, b: FileImage): boolean {
  switch (a.kind) {
    case 'absent':
    case 'other':
      return b.kind === a.kind;
    case 'file':
      return b.kind === 'file' && b.sha256 === a.sha256 && b.mode === a.mode;
    case 'symlink':
      return b.kind === 'symlink' && b.target === a.target;
    case 'too-large':
      return false;
  }
}

/**
 * Puts `image` back at `path` (a real path inside `root`). A file that did not exist is deleted,
 * and folders created for it are removed up to `keepDir` when empty.
 */
export async function restoreImage(
  root: string,
  path: string,
  image: FileImage,
  store: BlobStore,
  keepDir?: string,
): Promise<'restored' | 'deleted'> {
  switch (image.kind) {
    case 'absent':
      await removeFileVerified(root, path);
      if (keepDir) await removeEmptyFoldersVerified(root, dirname(path), keepDir);
      return 'deleted';
    case 'file':
      // The rename of the atomic write replaces a symlink at `path` instead of following it.
      await writeFileVerified(root, path, await store.get(image.sha256), { mode: image.mode });
      return 'restored';
    case 'symlink':
      await symlinkVerified(root, path, image.target);
      return 'restored';
    case 'too-large':
      throw new Error(`${path} was too large (${image.size} bytes) to keep a copy`);
    case 'other':
      throw new Error(`${path} was not a regular file`);
  }
}
