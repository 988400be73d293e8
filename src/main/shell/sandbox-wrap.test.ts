import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInPty } from './pty-session';
import { bwrapArgv } from './sandbox-launcher';
import type { ProjectAccess } from './sandbox-launcher';
import { probeSandbox } from './sandbox-probe';
import { BLOCKED_SUFFIX, prepareSandbox } from './sandbox-wrap';

const BWRAP = { kind: 'bwrap', available: true, description: 'bubblewrap' } as const;
const GIT: ProjectAccess = { kind: 'read-write', git: 'protected' };
const state = await probeSandbox();
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
      access: GIT,
    });
    const hooks = path.join(folder, '.git', 'hooks');
    expect((await stat(hooks)).isDirectory()).toBe(true);
    const argv = prepared.wrap?.(['/bin/true']) ?? [];
    expect(argv.join(' ')).toContain(`--ro-bind ${hooks} ${hooks}`);
    // A home folder that does not exist is not mounted over.
    expect(argv).not.toContain('/no/such/home');
    expect(await prepared.finish()).toEqual([]);
  });

  it('adds no hooks folder where .git is read-only anyway', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-wrap-'));
    await mkdir(path.join(folder, '.git'));
    for (const access of [
      { kind: 'read-only' },
      { kind: 'read-write', git: 'read-only' },
    ] as const) {
      const prepared = await prepareSandbox(BWRAP, {
        folder,
        home: '',
        allowNetwork: false,
        access,
      });
      await prepared.finish();
    }
    expect(existsSync(path.join(folder, '.git', 'hooks'))).toBe(false);
  });

  it('leaves a folder without .git alone and wraps nothing when there is no sandbox', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-wrap-'));
    await prepareSandbox(BWRAP, { folder, home: '', allowNetwork: false, access: GIT });
    await expect(stat(path.join(folder, '.git'))).rejects.toThrow();
    const none = await prepareSandbox(
      { kind: 'none', available: false, description: 'none' },
      { folder, home: '', allowNetwork: false, access: GIT },
    );
    expect(none.wrap).toBeUndefined();
    expect(none.env).toEqual({});
    // Without a pid namespace, what a command leaves running is found by scanning /proc.
    expect(none.contained).toBe(false);
  });

  it('wraps in the argv bwrapArgv builds from a fresh .git scan, for every access', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-wrap-'));
    for (const dir of ['.git/hooks', 'vendor/lib/.git/hooks', 'sub/.git/info'])
      await mkdir(path.join(folder, dir), { recursive: true });
    const accesses: readonly ProjectAccess[] = [
      { kind: 'read-only' },
      { kind: 'read-write', git: 'read-only' },
      GIT,
    ];
    for (const access of accesses) {
      const plan = { folder, home: '', allowNetwork: false, access };
      const prepared = await prepareSandbox(BWRAP, plan);
      const argv = prepared.wrap?.(['/bin/true']) ?? [];
      expect(argv).toEqual(bwrapArgv(plan, ['/bin/true']));
      // Only a writable project needs the nested repository bound read-only.
      expect(argv.includes(path.join(folder, 'vendor', 'lib', '.git'))).toBe(
        access.kind === 'read-write',
      );
      await prepared.finish();
    }
  });

  it('says bubblewrap contains the command: its argv makes a pid namespace that dies with it', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-wrap-'));
    const prepared = await prepareSandbox(BWRAP, {
      folder,
      home: '',
      allowNetwork: false,
      access: GIT,
    });
    expect(prepared.contained).toBe(true);
    const argv = prepared.wrap?.(['/bin/true']) ?? [];
    expect(argv).toContain('--unshare-pid');
    expect(argv).toContain('--die-with-parent');
  });

  it.runIf(state.kind === 'bwrap')(
    'moves aside the git settings files a git command created, since no mount could stop it',
    async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-wrap-'));
      await mkdir(path.join(folder, '.git'));
      await mkdir(path.join(folder, 'evil'));
      const prepared = await prepareSandbox(state, {
        folder,
        home: '',
        allowNetwork: false,
        access: GIT,
      });
      const result = await runInPty({
        command:
          'echo "$PWD/evil" > .git/commondir; echo "[core]" > .git/config.worktree; echo ran',
        folder,
        timeoutMs: 15_000,
        wrap: prepared.wrap,
      });
      expect(result.text).toContain('ran');
      const notes = await prepared.finish();
      const commondir = path.join(folder, '.git', 'commondir');
      expect(existsSync(commondir)).toBe(false);
      expect(existsSync(path.join(folder, '.git', 'config.worktree'))).toBe(false);
      expect(await readFile(`${commondir}${BLOCKED_SUFFIX}`, 'utf8')).toBe(`${folder}/evil\n`);
      expect(notes).toHaveLength(2);
      expect(notes[0]).toContain(`created ${commondir}`);
    },
  );
});
