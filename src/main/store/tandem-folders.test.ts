import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tandemFolders } from './tandem-folders';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-folders-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('tandemFolders', () => {
  it("names this process's data, the other front end's and the code cache, once each", () => {
    const home = join(root, 'home');
    const env = { HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') };
    const folders = tandemFolders(join(home, '.local', 'share', 'tandem'), env, home);
    expect(folders[0]).toBe(join(home, '.local', 'share', 'tandem'));
    expect(folders).toEqual(
      expect.arrayContaining([
        join(home, '.local', 'share', 'tandem'),
        ...(process.platform === 'linux' ? [join(home, '.config', 'tandem')] : []),
        join(home, '.cache', 'tandem', 'v8'),
      ]),
    );
    expect(new Set(folders).size).toBe(folders.length);
  });

  it('follows the XDG and Tandem variables, and links on the way to folders not made yet', async () => {
    const home = join(root, 'home');
    const disk = join(root, 'disk');
    await mkdir(home);
    await mkdir(disk);
    await symlink(disk, join(home, 'linked'));
    const env = {
      HOME: home,
      TANDEM_HOME: join(root, 'cli-data'),
      TANDEM_USER_DATA_DIR: join(root, 'window-data'),
      XDG_CACHE_HOME: join(home, 'linked'),
    };
    expect(tandemFolders(join(root, 'own'), env, home)).toEqual([
      join(root, 'own'),
      join(root, 'cli-data'),
      join(root, 'window-data'),
      join(disk, 'tandem', 'v8'),
    ]);
  });
});
