import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareSandbox } from './sandbox-wrap';

const BWRAP = { kind: 'bwrap', available: true, description: 'bubblewrap' } as const;
let folder: string | undefined;

afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('prepareSandbox', () => {
  it('gives a repository without hooks an empty read-only hooks folder', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-wrap-'));
    await mkdir(path.join(folder, '.git'));
    const prepared = await prepareSandbox(BWRAP, {
      folder,
      home: '/no/such/home',
      allowNetwork: false,
    });
    const hooks = path.join(folder, '.git', 'hooks');
    expect((await stat(hooks)).isDirectory()).toBe(true);
    const argv = prepared.wrap?.(['/bin/true']) ?? [];
    expect(argv.join(' ')).toContain(`--ro-bind ${hooks} ${hooks}`);
    // A home folder that does not exist is not mounted over.
    expect(argv).not.toContain('/no/such/home');
    await prepared.dispose();
  });

  it('leaves a folder without .git alone and wraps nothing when there is no sandbox', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-wrap-'));
    await prepareSandbox(BWRAP, { folder, home: '', allowNetwork: false });
    await expect(stat(path.join(folder, '.git'))).rejects.toThrow();
    const none = await prepareSandbox(
      { kind: 'none', available: false, description: 'none' },
      { folder, home: '', allowNetwork: false },
    );
    expect(none.wrap).toBeUndefined();
    expect(none.env).toEqual({});
  });
});
