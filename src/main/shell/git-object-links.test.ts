import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { linkedObject } from './git-object-links';

let base: string;
let objects: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'tandem-objects-'));
  objects = path.join(base, 'objects');
  await mkdir(path.join(objects, 'ab'), { recursive: true });
  await mkdir(path.join(objects, 'pack'));
  await writeFile(path.join(objects, 'ab', 'cdef'), 'loose');
  await mkdir(path.join(base, 'outside', 'cd'), { recursive: true });
  await writeFile(path.join(base, 'outside', 'cd', 'ef01'), 'secret');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('linkedObject', () => {
  it('finds nothing in a store of plain files', () => {
    expect(linkedObject(objects)).toBeUndefined();
    expect(linkedObject(path.join(base, 'missing'))).toBeUndefined();
  });

  it.each([
    ['a loose object', 'ab/0123', 'outside/cd/ef01'],
    ['an object folder', 'cd', 'outside/cd'],
    ['the info folder', 'info', 'outside'],
  ])('finds %s that is a symlink', async (_what, link, target) => {
    await symlink(path.join(base, target), path.join(objects, link));
    expect(linkedObject(objects)).toBe(path.join(objects, link));
  });

  it('sees a link added to a folder it already looked at (the folder’s mtime moved)', async () => {
    expect(linkedObject(objects)).toBeUndefined();
    await symlink(path.join(base, 'outside/cd/ef01'), path.join(objects, 'ab', '0123'));
    expect(linkedObject(objects)).toBe(path.join(objects, 'ab', '0123'));
  });

  it('treats an object folder it cannot read as a link (asks)', async () => {
    await mkdir(path.join(objects, 'ee', 'sub'), { recursive: true });
    expect(linkedObject(objects)).toBe(path.join(objects, 'ee', 'sub'));
  });
});
