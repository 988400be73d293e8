// Descriptor verification with real files and symlinks, for both strategies: /proc (Linux) and
// the re-walk used where there is no /proc (run here too, so it is tested on every platform).
import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  open,
  realpath,
  rename,
  rm,
  symlink,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  nameInDir,
  UnverifiedPathError,
  verifyOpened,
  verifyOpenedSync,
  verifyStrategy,
  type VerifyStrategy,
} from './fd-verify';

let base = '';
let root = '';
let outside = '';
const handles: FileHandle[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-fd-')));
  root = join(base, 'proj');
  outside = join(base, 'outside');
  await mkdir(join(root, 'a'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'a', 'x.txt'), 'inside\n');
  await writeFile(join(outside, 'x.txt'), 'OUTSIDE\n');
});

afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close().catch(() => undefined);
  await rm(base, { recursive: true, force: true });
});

async function opened(path: string): Promise<FileHandle> {
  const handle = await open(path, 'r');
  handles.push(handle);
  return handle;
}

const strategies: VerifyStrategy[] = existsSync('/proc/self/fd') ? ['proc', 'rewalk'] : ['rewalk'];
const expected = () => join(root, 'a', 'x.txt');

/** The main thread's form and the scan worker's synchronous one must judge alike. */
const forms = [
  ['verifyOpened', verifyOpened],
  [
    'verifyOpenedSync',
    (r: string, e: string, h: FileHandle, s: VerifyStrategy) =>
      Promise.resolve().then(() => verifyOpenedSync(r, e, h.fd, s)),
  ],
] as const;
const cases = strategies.flatMap((strategy) =>
  forms.map(([name, form]) => ({ name, form, strategy })),
);

describe.each(cases)('$name ($strategy)', ({ form: verifyOpened, strategy }) => {
  it('accepts the file at the checked path and gives its stats', async () => {
    const stats = await verifyOpened(root, expected(), await opened(expected()), strategy);
    expect(stats.isFile()).toBe(true);
    expect(stats.size).toBe(7n);
  });

  it('refuses a descriptor that went through a folder swapped for a symlink out', async () => {
    await rename(join(root, 'a'), join(root, 'a.real'));
    await symlink(outside, join(root, 'a'));
    const handle = await opened(expected()); // What a racing open gets: the outside file.
    await expect(verifyOpened(root, expected(), handle, strategy)).rejects.toThrow(
      UnverifiedPathError,
    );
    // Swapped back before the check: the path looks fine again, but it is not this descriptor.
    await unlink(join(root, 'a'));
    await rename(join(root, 'a.real'), join(root, 'a'));
    await expect(verifyOpened(root, expected(), handle, strategy)).rejects.toThrow(
      /could not verify .*x\.txt is the checked path/,
    );
  });

  it('refuses a file deleted, or deleted and replaced, after it was opened', async () => {
    const handle = await opened(expected());
    await unlink(expected());
    await expect(verifyOpened(root, expected(), handle, strategy)).rejects.toThrow(
      UnverifiedPathError,
    );
    await writeFile(expected(), 'a new file by the same name\n');
    await expect(verifyOpened(root, expected(), handle, strategy)).rejects.toThrow(
      UnverifiedPathError,
    );
  });

  it('refuses an expected path outside the root before looking at the descriptor', async () => {
    const handle = await opened(join(outside, 'x.txt'));
    await expect(verifyOpened(root, join(outside, 'x.txt'), handle, strategy)).rejects.toThrow(
      /it is not inside/,
    );
  });
});

describe('nameInDir', () => {
  it('names a child through the descriptor on /proc, by path otherwise', async () => {
    const dir = await opened(join(root, 'a'));
    if (verifyStrategy === 'proc') {
      expect(nameInDir(dir, join(root, 'a'), 'x.txt', 'proc')).toBe(
        `/proc/self/fd/${dir.fd}/x.txt`,
      );
    }
    expect(nameInDir(dir, join(root, 'a'), 'x.txt', 'rewalk')).toBe(join(root, 'a', 'x.txt'));
  });

  it.each(['', '.', '..', 'a/b', 'x\0y'])('refuses %j as a single name', async (name) => {
    const dir = await opened(join(root, 'a'));
    expect(() => nameInDir(dir, join(root, 'a'), name)).toThrow(/not a single file name/);
  });
});
