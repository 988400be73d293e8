// The verified file functions against real folders and symlinks. Each "swapped" case puts the
// file system in the state a racer would create between the guard's check and the open.
import { execFileSync } from 'node:child_process';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openDirVerified,
  openVerified,
  readEntryVerified,
  readFileVerified,
  removeEmptyFoldersVerified,
  removeFileVerified,
  symlinkVerified,
  UnverifiedPathError,
  writeFileVerified,
} from './verified-fs';

let base = '';
let root = '';
let outside = '';

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-verified-')));
  root = join(base, 'proj');
  outside = join(base, 'outside');
  await mkdir(join(root, 'a'), { recursive: true });
  await mkdir(join(root, 'b'));
  await mkdir(outside);
  await writeFile(join(root, 'a', 'x.txt'), 'inside a\n');
  await writeFile(join(root, 'b', 'x.txt'), 'inside b\n');
  await writeFile(join(outside, 'x.txt'), 'OUTSIDE\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** What a racer leaves behind: the real folder `a` moved away and a symlink in its place. */
async function swapFolder(name: string, target: string): Promise<void> {
  await rename(join(root, name), join(root, `${name}.moved`));
  await symlink(target, join(root, name));
}

const unverified = expect.any(UnverifiedPathError) as unknown;

describe('readFileVerified', () => {
  it('reads a file by real path or relative to the root', async () => {
    const expected = { kind: 'file', bytes: Buffer.from('inside a\n'), mode: 0o644 };
    await chmod(join(root, 'a', 'x.txt'), 0o644);
    expect(await readFileVerified(root, join(root, 'a', 'x.txt'))).toEqual(expected);
    expect(await readFileVerified(root, 'a/x.txt')).toEqual(expected);
  });

  it('describes what is not a readable file', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await writeFile(join(root, 'big.bin'), Buffer.alloc(2048));
    expect(await readFileVerified(root, 'missing.txt')).toEqual({ kind: 'missing' });
    expect(await readFileVerified(root, 'a/x.txt/deeper')).toEqual({ kind: 'missing' });
    expect(await readFileVerified(root, 'a')).toEqual({ kind: 'folder' });
    expect(await readFileVerified(root, root)).toEqual({ kind: 'folder' });
    // A FIFO does not block the open (O_NONBLOCK) and is never read.
    expect(await readFileVerified(root, 'pipe')).toEqual({ kind: 'other' });
    expect(await readFileVerified(root, 'big.bin', { maxBytes: 1024 })).toEqual({
      kind: 'too-large',
      size: 2048,
    });
  });

  it.each([
    ['a folder on the way swapped for a symlink out', () => swapFolder('a', outside)],
    [
      'a folder on the way swapped for a symlink to another folder inside',
      () => swapFolder('a', 'b'),
    ],
    [
      'the file itself swapped for a symlink out',
      () => swapFile('a/x.txt', join(outside, 'x.txt')),
    ],
    ['the file itself swapped for a symlink inside', () => swapFile('a/x.txt', '../b/x.txt')],
  ])('refuses when %s', async (_label, swap) => {
    await swap();
    await expect(readFileVerified(root, join(root, 'a', 'x.txt'))).rejects.toEqual(unverified);
    await expect(openVerified(root, 'a/x.txt')).rejects.toThrow(/could not verify/);
  });

  it.each([
    ['outside the root', () => join(outside, 'x.txt')],
    ['the parent of the root', () => base],
    ['with .. in it', () => 'a/../a/x.txt'],
    ['a sibling with the root as prefix', () => `${root}-evil/x.txt`],
  ])('refuses a path %s without opening it', async (_label, path) => {
    await expect(readFileVerified(root, path())).rejects.toThrow(
      /not a plain path inside|not inside/,
    );
  });
});

async function swapFile(rel: string, target: string): Promise<void> {
  await rename(join(root, rel), join(root, `${rel}.moved`));
  await symlink(target, join(root, rel));
}

describe('readEntryVerified', () => {
  it('reports a final symlink instead of following it', async () => {
    await symlink(join(outside, 'x.txt'), join(root, 'link'));
    expect(await readEntryVerified(root, 'link')).toEqual({
      kind: 'symlink',
      target: join(outside, 'x.txt'),
    });
    expect(await readEntryVerified(root, 'a/x.txt')).toMatchObject({ kind: 'file' });
    expect(await readEntryVerified(root, 'nope/x.txt')).toEqual({ kind: 'missing' });
  });

  it('refuses when the folder holding the name was swapped', async () => {
    await swapFolder('a', outside);
    await expect(readEntryVerified(root, 'a/x.txt')).rejects.toEqual(unverified);
  });
});

describe('writeFileVerified', () => {
  it('replaces a file atomically, keeping its mode, and creates parents', async () => {
    await chmod(join(root, 'a', 'x.txt'), 0o741);
    await writeFileVerified(root, 'a/x.txt', 'new\n');
    expect(await readFile(join(root, 'a', 'x.txt'), 'utf8')).toBe('new\n');
    expect((await stat(join(root, 'a', 'x.txt'))).mode & 0o777).toBe(0o741);
    await writeFileVerified(root, join(root, 'n1', 'n2', 'y.txt'), 'deep\n', { mode: 0o600 });
    expect(await readFile(join(root, 'n1', 'n2', 'y.txt'), 'utf8')).toBe('deep\n');
    expect((await stat(join(root, 'n1', 'n2', 'y.txt'))).mode & 0o777).toBe(0o600);
    expect((await readdir(join(root, 'a'))).filter((n) => n.includes('tandem'))).toEqual([]);
  });

  it('refuses a folder, the root, and a missing parent without createParents', async () => {
    await expect(writeFileVerified(root, 'a', 'x')).rejects.toThrow(/is a folder/);
    await expect(writeFileVerified(root, root, 'x')).rejects.toThrow(/project folder/);
    await expect(
      writeFileVerified(root, 'nope/x.txt', 'x', { createParents: false }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('replaces a symlink swapped in at the name instead of writing through it', async () => {
    await swapFile('a/x.txt', join(outside, 'x.txt'));
    await writeFileVerified(root, 'a/x.txt', 'mine\n');
    expect((await lstat(join(root, 'a', 'x.txt'))).isFile()).toBe(true);
    expect(await readFile(join(outside, 'x.txt'), 'utf8')).toBe('OUTSIDE\n');
  });

  it.each([
    ['an existing file', 'a/x.txt'],
    ['a new file', 'a/new.txt'],
    ['a new file in new folders', 'a/n1/n2/new.txt'],
  ])('never writes %s through a parent swapped for a symlink out', async (_label, rel) => {
    await swapFolder('a', outside);
    await expect(writeFileVerified(root, join(root, rel), 'PWNED\n')).rejects.toThrow(
      /could not verify/,
    );
    expect(await readdir(outside)).toEqual(['x.txt']);
    expect(await readFile(join(outside, 'x.txt'), 'utf8')).toBe('OUTSIDE\n');
  });

  it('never writes into the wrong folder inside either (what runs is what was judged)', async () => {
    await swapFolder('a', 'b');
    await expect(writeFileVerified(root, 'a/x.txt', 'PWNED\n')).rejects.toEqual(unverified);
    expect(await readFile(join(root, 'b', 'x.txt'), 'utf8')).toBe('inside b\n');
  });
});

describe('removing and symlinks', () => {
  it('removes a file, reports absence, and never follows a swapped parent', async () => {
    expect(await removeFileVerified(root, 'a/x.txt')).toBe(true);
    expect(await removeFileVerified(root, 'a/x.txt')).toBe(false);
    expect(await removeFileVerified(root, 'nope/x.txt')).toBe(false);
    await swapFolder('b', outside);
    await expect(removeFileVerified(root, 'b/x.txt')).rejects.toEqual(unverified);
    expect(await readdir(outside)).toEqual(['x.txt']);
  });

  it('makes a symlink in a verified folder, replacing what was there', async () => {
    await symlinkVerified(root, 'a/x.txt', '../b/x.txt');
    await symlinkVerified(root, 'c/d/link', 'target');
    expect(await readlink(join(root, 'a', 'x.txt'))).toBe('../b/x.txt');
    expect(await readlink(join(root, 'c', 'd', 'link'))).toBe('target');
    await swapFolder('b', outside);
    await expect(symlinkVerified(root, 'b/l', '/etc/passwd')).rejects.toEqual(unverified);
    expect(await readdir(outside)).toEqual(['x.txt']);
  });

  it('removes empty folders upwards, stopping at the first non-empty one or stopAt', async () => {
    await mkdir(join(root, 'e1', 'e2', 'e3'), { recursive: true });
    await removeEmptyFoldersVerified(root, join(root, 'e1', 'e2', 'e3'), root);
    expect(await readdir(root)).not.toContain('e1');
    await mkdir(join(root, 'a', 'f1', 'f2'), { recursive: true });
    await removeEmptyFoldersVerified(root, join(root, 'a', 'f1', 'f2'), root);
    expect(await readdir(join(root, 'a'))).toEqual(['x.txt']);
    await mkdir(join(root, 'g1', 'g2'), { recursive: true });
    await removeEmptyFoldersVerified(root, join(root, 'g1', 'g2'), join(root, 'g1'));
    expect(await readdir(join(root, 'g1'))).toEqual([]);
  });
});

describe('openDirVerified', () => {
  it('lists through the descriptor and notices when the folder moves', async () => {
    const dir = await openDirVerified(root, 'a');
    try {
      expect((await dir.list()).map((d) => d.name)).toEqual(['x.txt']);
      const child = dir.child('x.txt');
      await expect(child).rejects.toMatchObject({ code: 'ENOTDIR' });
      await dir.reverify();
      await rename(join(root, 'a'), join(root, 'a2'));
      await expect(dir.reverify()).rejects.toEqual(unverified);
      // Names are still looked up in the folder that was opened, wherever it went.
      expect((await dir.list()).map((d) => d.name)).toEqual(['x.txt']);
    } finally {
      await dir.close();
    }
  });

  it('creates missing folders one verified parent at a time', async () => {
    const dir = await openDirVerified(root, 'm1/m2/m3', { create: true });
    await dir.close();
    expect((await stat(join(root, 'm1', 'm2', 'm3'))).isDirectory()).toBe(true);
    await swapFolder('b', outside);
    await expect(openDirVerified(root, 'b/new', { create: true })).rejects.toThrow();
    expect(await readdir(outside)).toEqual(['x.txt']);
  });
});

describe('reading sizes', () => {
  it.each([0, 1, 4095, 4096, 70_000, 1_000_003])('reads a %i-byte file exactly', async (size) => {
    const bytes = Buffer.alloc(size, 7);
    if (size > 0) bytes[size - 1] = 9;
    await writeFile(join(root, 'sized.bin'), bytes);
    const read = await readFileVerified(root, 'sized.bin', { maxBytes: 2_000_000 });
    expect(read.kind === 'file' && read.bytes.equals(bytes)).toBe(true);
  });
});
