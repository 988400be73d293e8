import {
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write';

let dir = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'tandem-atomic-')));
});
afterEach(async () => {
  await chmod(dir, 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces content, keeps the mode, and creates parents', async () => {
    await writeFile(join(dir, 'a.sh'), 'old');
    await chmod(join(dir, 'a.sh'), 0o741);
    await writeFileAtomic(join(dir, 'a.sh'), 'new');
    expect(await readFile(join(dir, 'a.sh'), 'utf8')).toBe('new');
    expect((await stat(join(dir, 'a.sh'))).mode & 0o777).toBe(0o741);
    await writeFileAtomic(join(dir, 'x', 'y', 'z.txt'), 'deep');
    expect(await readFile(join(dir, 'x', 'y', 'z.txt'), 'utf8')).toBe('deep');
  });

  it('fails after writing the temp file without touching the target or leaving the temp', async () => {
    await mkdir(join(dir, 'target'));
    await writeFile(join(dir, 'target', 'inside.txt'), 'kept');
    await expect(writeFileAtomic(join(dir, 'target'), 'new content')).rejects.toThrow(
      /is a folder/,
    );
    expect(await readFile(join(dir, 'target', 'inside.txt'), 'utf8')).toBe('kept');
    expect(await readdir(dir)).toEqual(['target']);
  });

  it('leaves the old content when the folder is read-only', async (ctx) => {
    if (process.getuid?.() === 0) ctx.skip(); // root ignores directory permissions
    await writeFile(join(dir, 'keep.txt'), 'old');
    await chmod(dir, 0o555);
    await expect(writeFileAtomic(join(dir, 'keep.txt'), 'new')).rejects.toThrow(/EACCES/);
    expect(await readFile(join(dir, 'keep.txt'), 'utf8')).toBe('old');
  });
});
