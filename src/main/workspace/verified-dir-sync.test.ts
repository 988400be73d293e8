// The scan worker's synchronous verified folders against real folders and symlinks, for both
// strategies. Each "swapped" case puts the file system in the state a racer would create between
// an open and what follows it.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, readSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VerifyStrategy } from './fd-verify';
import { openForReadVerifiedSync, VerifiedDirSync, type OpenedFileSync } from './verified-dir-sync';
import { UnverifiedPathError } from './verified-fs';

let base = '';
let root = '';
let outside = '';
const open: VerifiedDirSync[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-vsync-')));
  root = join(base, 'proj');
  outside = join(base, 'outside');
  await mkdir(join(root, 'a'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'a', 'x.txt'), 'inside a\n');
  await writeFile(join(outside, 'x.txt'), 'OUTSIDE\n');
  await writeFile(join(outside, 'only-outside.txt'), 'OUTSIDE\n');
});

afterEach(async () => {
  for (const dir of open.splice(0)) dir.close();
  await rm(base, { recursive: true, force: true });
});

const strategies: VerifyStrategy[] = existsSync('/proc/self/fd') ? ['proc', 'rewalk'] : ['rewalk'];

function openDir(path: string, strategy: VerifyStrategy): VerifiedDirSync {
  const dir = VerifiedDirSync.open(root, path, strategy);
  open.push(dir);
  return dir;
}

/** The file's text; closes it. */
function text(file: OpenedFileSync): string {
  try {
    const bytes = Buffer.alloc(Number(file.stats.size));
    readSync(file.fd, bytes, 0, bytes.length, 0);
    return bytes.toString('utf8');
  } finally {
    closeSync(file.fd);
  }
}

/** What a racer leaves behind: the real folder moved away and a symlink out in its place. */
async function swapFolder(name: string): Promise<void> {
  await rename(join(root, name), join(root, `${name}.moved`));
  await symlink(outside, join(root, name));
}

describe.each(strategies)('VerifiedDirSync (%s)', (strategy) => {
  it('lists a folder and opens its files, saying what each is', () => {
    execFileSync('mkfifo', [join(root, 'a', 'pipe')]);
    const dir = openDir(join(root, 'a'), strategy);
    expect(
      dir
        .list()
        .map((d) => d.name)
        .sort(),
    ).toEqual(['pipe', 'x.txt']);
    expect(text(dir.openForRead('x.txt'))).toBe('inside a\n');
    // A FIFO opens without blocking (O_NONBLOCK) and its stats say so; nothing reads it.
    const pipe = dir.openForRead('pipe');
    closeSync(pipe.fd);
    expect(pipe.stats.isFIFO()).toBe(true);
    expect(dir.pathOf('x.txt')).toBe(join(root, 'a', 'x.txt'));
  });

  it('refuses a folder that is a symlink when it is opened', async () => {
    await swapFolder('a');
    expect(() => openDir(join(root, 'a'), strategy)).toThrow(/it is a symlink now/);
  });

  it('refuses a path outside the root, and never opens a final symlink in the folder', async () => {
    expect(() => openDir(outside, strategy)).toThrow(/it is not inside/);
    await symlink(join(outside, 'x.txt'), join(root, 'a', 'link.txt'));
    const dir = openDir(join(root, 'a'), strategy);
    expect(() => dir.openForRead('link.txt')).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(() => dir.openForRead('../x.txt')).toThrow(/not a single file name/);
  });

  it('never lists or opens what is outside once the folder was swapped after the open', async () => {
    const dir = openDir(join(root, 'a'), strategy);
    await swapFolder('a');
    if (strategy === 'proc') {
      // Names are looked up in the opened folder itself, wherever its path now leads.
      expect(dir.list().map((d) => d.name)).toEqual(['x.txt']);
      expect(text(dir.openForRead('x.txt'))).toBe('inside a\n');
      expect(() => dir.openForRead('only-outside.txt')).toThrow(
        expect.objectContaining({ code: 'ENOENT' }),
      );
    } else {
      // Names are paths again: the folder is checked after listing and each file after opening.
      expect(() => dir.list()).toThrow(UnverifiedPathError);
      expect(() => dir.openForRead('x.txt')).toThrow(UnverifiedPathError);
    }
  });
});

describe.each(strategies)('openForReadVerifiedSync (%s)', (strategy) => {
  it('opens the file at a checked path', () => {
    expect(text(openForReadVerifiedSync(root, join(root, 'a', 'x.txt'), strategy))).toBe(
      'inside a\n',
    );
  });

  it('refuses a file reached through a folder swapped for a symlink out', async () => {
    await swapFolder('a');
    expect(() => openForReadVerifiedSync(root, join(root, 'a', 'x.txt'), strategy)).toThrow(
      UnverifiedPathError,
    );
  });

  it('refuses a file that is a symlink now, and a path outside', async () => {
    await rename(join(root, 'a', 'x.txt'), join(root, 'a', 'x.moved'));
    await symlink(join(outside, 'x.txt'), join(root, 'a', 'x.txt'));
    expect(() => openForReadVerifiedSync(root, join(root, 'a', 'x.txt'), strategy)).toThrow(
      /it is a symlink now/,
    );
    expect(() => openForReadVerifiedSync(root, join(outside, 'x.txt'), strategy)).toThrow(
      /it is not inside/,
    );
  });
});
