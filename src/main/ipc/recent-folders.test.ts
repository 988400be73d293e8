import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRecentFolders } from './recent-folders';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-recent-')));
  for (const name of ['a', 'b', 'c']) await mkdir(join(root, name));
});
afterEach(() => rm(root, { recursive: true, force: true }));

it('adds only through remember; touch moves a listed folder to the front and adds nothing', async () => {
  const recent = createRecentFolders(join(root, 'data'));
  const [a, b, c] = ['a', 'b', 'c'].map((n) => join(root, n)) as [string, string, string];
  await recent.touch(a);
  await expect(recent.list()).resolves.toEqual([]);
  await recent.remember(a);
  await recent.remember(b);
  await recent.touch(c);
  await expect(recent.list()).resolves.toEqual([b, a]);
  await recent.touch(a);
  await expect(recent.list()).resolves.toEqual([a, b]);
  // A second instance (a restart) reads the same list.
  await expect(createRecentFolders(join(root, 'data')).list()).resolves.toEqual([a, b]);
});
