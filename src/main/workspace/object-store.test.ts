// The store copies project files only through verified opens: a folder on the way that is a
// symlink is refused, never read through (change tracking and the journal share this store).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectStore } from './object-store';
import { UnverifiedPathError } from './verified-fs';

let base = '';
let root = '';
let store: ObjectStore;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-objects-')));
  root = join(base, 'proj');
  await mkdir(join(root, 'real'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(root, 'real', 'a.txt'), 'inside\n');
  await writeFile(join(base, 'outside', 'a.txt'), 'OUTSIDE\n');
  await symlink(join(base, 'outside'), join(root, 'link'));
  await symlink(join(root, 'real', 'a.txt'), join(root, 'file-link'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  store = new ObjectStore(join(base, 'objects'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('ObjectStore.putFile', () => {
  it('copies a file inside the project', async () => {
    const stored = await store.putFile(root, join(root, 'real', 'a.txt'));
    expect(stored && store.read(stored.sha256).toString()).toBe('inside\n');
  });

  it.each([
    ['a missing file', 'real/gone.txt'],
    ['a missing folder', 'gone/a.txt'],
    ['a FIFO (never read, never blocks)', 'fifo'],
  ])('gives nothing for %s', async (_name, rel) => {
    expect(await store.putFile(root, join(root, rel))).toBeUndefined();
  });

  it.each([
    ['a folder that is a symlink out', 'link/a.txt'],
    ['a file that is a symlink', 'file-link'],
    ['a path outside', '../outside/a.txt'],
  ])('refuses %s', async (_name, rel) => {
    await expect(store.putFile(root, join(root, rel))).rejects.toThrow(UnverifiedPathError);
  });
});
