// Undo cannot be turned against the person (issue 11 item 1): after approved commands, run for real
// in bubblewrap, replace a folder with a symlink to somewhere outside, reverting the earlier
// command must not write there; it stops and says which file it could not restore and why.
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
import { ConfinementError, confinedParent } from './confined-path';
import { openFileJournal } from './file-journal';

const state = await probeSandbox();
const fx = new SandboxFixture();
let base = '';

beforeAll(async () => {
  await fx.setUp();
  base = await realpath(await fx.temp(path.join(os.tmpdir(), 'tandem-confine-')));
});
afterAll(() => fx.tearDown());

describe('confinedParent', () => {
  it.each<[string, string, boolean, string | undefined]>([
    ['a real folder', 'real/file', false, 'real'],
    ['the folder itself', 'file', false, ''],
    ['a missing folder, not created', 'missing/file', false, undefined],
    ['a missing folder, created', 'made/deep/file', true, 'made/deep'],
    ['a symlinked folder', 'link/file', true, 'error: link is a symbolic link now'],
    ['a file used as a folder', 'plain/file', true, 'error: plain is not a folder now'],
    ['a path outside', '../outside/file', true, 'error: is not inside the project folder'],
  ])('%s', async (_name, rel, create, expected) => {
    const root = await fx.temp(path.join(base, 'root-'));
    await mkdir(path.join(root, 'real'));
    await writeFile(path.join(root, 'plain'), 'x');
    await mkdir(path.join(base, 'elsewhere'), { recursive: true });
    await symlink(path.join(base, 'elsewhere'), path.join(root, 'link'));
    const abs = path.join(root, rel);
    if (expected?.startsWith('error: ')) {
      expect(() => confinedParent(root, abs, create)).toThrow(ConfinementError);
      expect(() => confinedParent(root, abs, create)).toThrow(expected.slice(7));
      expect(await readdir(path.join(base, 'elsewhere'))).toEqual([]);
    } else {
      const parent = confinedParent(root, abs, create);
      expect(parent).toBe(expected === undefined ? undefined : path.join(root, expected));
    }
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
            'symbolic link now, and undo does not write through links. Revert the later change ' +
            'first, or fix this by hand. Nothing was changed.',
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
