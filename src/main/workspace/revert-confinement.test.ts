// Undo cannot be turned against the person (issue 11 item 1): after approved commands, run for real
// in bubblewrap, replace a folder with a symlink to somewhere outside, reverting the earlier
// command must not write there; it stops and says which file it could not restore and why.
// Undo reaches the project only through verified-fs.ts (main's racer test, path-race.test.ts,
// swaps folders while it works); the table checks the same refusals without a race.
import { existsSync } from 'node:fs';
import {
  mkdir,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_GIT, SandboxFixture } from '../shell/sandbox-fixture.test-support';
import { probeSandbox } from '../shell/sandbox-probe';
import { ChangeTracker } from './change-tracker';
import { captureImage, restoreImage, type FileImage } from './file-image';
import { openFileJournal } from './file-journal';
import { ObjectStore } from './object-store';

const state = await probeSandbox();
const fx = new SandboxFixture();
let base = '';

beforeAll(async () => {
  await fx.setUp();
  base = await realpath(await fx.temp(path.join(os.tmpdir(), 'tandem-confine-')));
});
afterAll(() => fx.tearDown());

describe('undo through verified folders only', () => {
  const content = Buffer.from('restored\n');
  type Expected = 'restored' | 'deleted' | { refused: RegExp };
  it.each<[string, string, 'file' | 'absent', Expected]>([
    ['a real folder', 'real/file', 'file', 'restored'],
    ['the folder itself', 'file', 'file', 'restored'],
    ['a missing folder, nothing to delete', 'missing/file', 'absent', 'deleted'],
    ['a missing folder, created', 'made/deep/file', 'file', 'restored'],
    ['a symlinked folder', 'link/file', 'file', { refused: /link.*it is a symlink now/ }],
    ['a symlinked folder, delete', 'link/file', 'absent', { refused: /it is a symlink now/ }],
    ['a file used as a folder', 'plain/file', 'file', { refused: /ENOTDIR|not a directory/ }],
    ['a path outside', '../outside/file', 'file', { refused: /not a plain path inside/ }],
  ])('%s', async (_name, rel, kind, expected) => {
    const root = await fx.temp(path.join(base, 'root-'));
    const elsewhere = await fx.temp(path.join(base, 'elsewhere-'));
    await writeFile(path.join(elsewhere, 'file'), 'outside\n');
    await mkdir(path.join(root, 'real'));
    await writeFile(path.join(root, 'plain'), 'x');
    await symlink(elsewhere, path.join(root, 'link'));
    const store = new ObjectStore(await fx.temp(path.join(base, 'objects-')));
    const image: FileImage =
      kind === 'absent'
        ? { kind: 'absent' }
        : { kind: 'file', sha256: store.putBytes(content), size: content.length, mode: 0o640 };
    const abs = path.join(root, rel);
    const restoring = restoreImage(root, abs, image, store, root);
    if (typeof expected === 'object') {
      await expect(restoring).rejects.toThrow(expected.refused);
    } else {
      expect(await restoring).toBe(expected);
      if (kind === 'file') expect(await readFile(abs)).toEqual(content);
    }
    // Whatever happened inside, nothing outside changed.
    expect(await readdir(elsewhere)).toEqual(['file']);
    expect(await readFile(path.join(elsewhere, 'file'), 'utf8')).toBe('outside\n');
    const seen = await captureImage(root, path.join(root, 'link', 'file'), store, false);
    expect(seen).toEqual({
      ok: false,
      reason:
        'link is a symlink now, and undo reads and writes only through folders it has verified',
    });
  });
});

describe.runIf(state.kind === 'bwrap')('revert after commands in bubblewrap', () => {
  it('does not restore a file through a folder a later command turned into a symlink', async () => {
    const folder = await fx.project({ 'sub/evil.desktop': '[Desktop Entry]\nExec=evil\n' });
    const outside = await fx.temp('/var/tmp/tandem-sbx-outside-');
    const dataDir = await fx.temp(path.join(os.tmpdir(), 'tandem-sbx-data-'));
    const journal = await openFileJournal({ dir: path.join(dataDir, 'journal'), folder });
    const tracker = new ChangeTracker({ folder, trackDir: path.join(dataDir, 'track'), journal });
    try {
      await tracker.prepare();
      const approved = async (callId: string, command: string): Promise<void> => {
        expect(await tracker.snapshotBefore(callId)).toEqual({ ok: true });
        const run = await fx.sandboxed(command, false, {}, NO_GIT, folder);
        expect(run.exitCode).toBe(0);
        expect(await tracker.changesSince(callId)).toMatchObject({ kind: 'tracked' });
      };
      await approved('call-1', 'rm -rf sub');
      await approved('call-2', `ln -s ${outside} sub`);
      expect(await readlink(path.join(folder, 'sub'))).toBe(outside);

      const result = await tracker.revert('call-1');
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.reason).toBe(
          'Not reverted: undo could not safely reach 1 file(s): sub/evil.desktop: sub is a ' +
            'symlink now, and undo reads and writes only through folders it has verified. ' +
            'Revert the later change first, or fix this by hand. Nothing was changed.',
        );
      }
      expect(await readdir(outside)).toEqual([]);

      // Undoing the later command first removes the link; then the file comes back inside.
      expect(await tracker.revert('call-2')).toMatchObject({ ok: true });
      expect(await tracker.revert('call-1')).toMatchObject({ ok: true });
      expect(await readFile(path.join(folder, 'sub', 'evil.desktop'), 'utf8')).toBe(
        '[Desktop Entry]\nExec=evil\n',
      );
      expect(await readdir(outside)).toEqual([]);
      expect(existsSync(path.join(outside, 'evil.desktop'))).toBe(false);
    } finally {
      await tracker.close();
      journal.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
