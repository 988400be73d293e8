// How the sandbox protects git: .git folders and files, hooks and settings, and which plan may commit.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInPty } from './pty-session';
import { findGitEntries } from './sandbox-launcher';
import {
  GIT,
  NO_GIT,
  READ_ONLY,
  readIn as read,
  SandboxFixture,
} from './sandbox-fixture.test-support';
import { probeSandbox } from './sandbox-probe';

const state = await probeSandbox();
const fx = new SandboxFixture();
const { sandboxed } = fx;
let folder: string;

beforeAll(async () => {
  await fx.setUp();
  folder = fx.folder;
});

afterAll(() => fx.tearDown());

describe('findGitEntries', () => {
  it('finds .git folders and files up to two levels down, not deeper and not through symlinks', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-sbx-find-'));
    try {
      for (const dir of ['.git', 'a/.git', 'a/b/.git', 'a/b/c/.git', 'x/.git/modules/m'])
        await mkdir(path.join(root, dir), { recursive: true });
      await mkdir(path.join(root, 'a', 'b2'));
      await writeFile(path.join(root, 'a', 'b2', '.git'), 'gitdir: ../../.git/modules/b2\n');
      await symlink(path.join(root, 'a'), path.join(root, 'link'));
      await mkdir(path.join(root, 'l'));
      await symlink('../x/.git', path.join(root, 'l', '.git'));
      const scan = findGitEntries(root);
      // A `.git` symlink is not followed or bound, but reported: git follows it.
      expect(scan.links).toEqual([path.join(root, 'l', '.git')]);
      expect(scan.complete).toBe(true);
      const found = scan.entries
        .map((entry) => `${path.relative(root, entry.path)}:${entry.kind}`)
        .sort();
      expect(found).toEqual([
        '.git:folder',
        'a/.git:folder',
        'a/b/.git:folder',
        'a/b2/.git:file',
        'x/.git:folder',
      ]);
      expect(findGitEntries(root, 2, 1).complete).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe.runIf(state.kind === 'bwrap')('git in bubblewrap', () => {
  it('keeps .git/hooks and .git/config read-only', async () => {
    const result = await sandboxed(
      'echo "rm -rf ~" > .git/hooks/pre-commit; echo "[alias]" >> .git/config; echo ok > .git/other',
    );
    await expect(readFile(path.join(folder, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
    expect(await readFile(path.join(folder, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(await readFile(path.join(folder, '.git', 'other'), 'utf8')).toBe('ok\n');
    expect(result.text).toContain('Read-only file system');
  });

  it('does not let .git be renamed away and replaced by a copy with writable hooks', async () => {
    const result = await sandboxed(
      'mv .git .git-moved || echo MOVE-REFUSED; rm -rf .git || echo REMOVE-REFUSED',
    );
    expect(result.text).toContain('MOVE-REFUSED');
    expect(result.text).toContain('REMOVE-REFUSED');
    expect(await readFile(path.join(folder, '.git', 'config'), 'utf8')).toBe('[core]\n');
    await expect(readFile(path.join(folder, '.git-moved', 'config'))).rejects.toThrow();
  });

  it('keeps .git, nested repositories and .git files read-only for a command that runs no git', async () => {
    const dir = await fx.project({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'vendor/lib/.git/HEAD': 'ref: refs/heads/main\n',
      'sub/.git': 'gitdir: ../.git/modules/sub\n',
    });
    const result = await sandboxed(
      [
        'echo x > .git/HEAD',
        'echo x > .git/new',
        'echo x > vendor/lib/.git/HEAD',
        "echo 'gitdir: /tmp/evil' > sub/.git",
        'mv .git .git-moved || echo MOVE-REFUSED',
        'echo ok > allowed.txt',
      ].join('; '),
      false,
      {},
      NO_GIT,
      dir,
    );
    expect(result.text).toContain('MOVE-REFUSED');
    expect(await read(dir, '.git/HEAD')).toBe('ref: refs/heads/main\n');
    await expect(read(dir, '.git/new')).rejects.toThrow();
    expect(await read(dir, 'vendor/lib/.git/HEAD')).toBe('ref: refs/heads/main\n');
    expect(await read(dir, 'sub/.git')).toBe('gitdir: ../.git/modules/sub\n');
    expect(await read(dir, 'allowed.txt')).toBe('ok\n');
  });

  it('lets a git command write .git but not hooks, config, commondir, config.worktree, info or modules', async () => {
    const protectedFiles = {
      '.git/hooks/pre-commit': '#!/bin/sh\n',
      '.git/config': '[core]\n',
      '.git/commondir': '.\n',
      '.git/config.worktree': '[core]\n',
      '.git/info/exclude': '# none\n',
      '.git/modules/m/config': '[core]\n',
      'vendor/lib/.git/config': '[core]\n',
    };
    const dir = await fx.project({ '.git/HEAD': 'ref: refs/heads/main\n', ...protectedFiles });
    const attacks = Object.keys(protectedFiles).map((name) => `echo EVIL > ${name}`);
    const result = await sandboxed(
      [
        ...attacks,
        'echo x > .git/info/attributes',
        'echo x > .git/modules/m/hooks',
        'echo ref: refs/heads/other > .git/HEAD',
        'echo ok > .git/index',
        'echo ok > vendor/lib/.git/index',
      ].join('; '),
      false,
      {},
      GIT,
      dir,
    );
    expect(result.text).toContain('Read-only file system');
    for (const [name, content] of Object.entries(protectedFiles))
      expect(await read(dir, name)).toBe(content);
    await expect(read(dir, '.git/info/attributes')).rejects.toThrow();
    await expect(read(dir, '.git/modules/m/hooks')).rejects.toThrow();
    expect(await read(dir, '.git/HEAD')).toBe('ref: refs/heads/other\n');
    expect(await read(dir, '.git/index')).toBe('ok\n');
    expect(await read(dir, 'vendor/lib/.git/index')).toBe('ok\n');
  });

  it('lets git itself commit under the git plan, and not under the others', async () => {
    const dir = await fx.project({ 'a.txt': 'a\n' });
    const git = (args: string) =>
      `git -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main ${args}`;
    // The repository is made outside the sandbox, as a person would have it.
    const init = await runInPty({ command: git('init -q'), folder: dir, timeoutMs: 15_000 });
    expect(init.exitCode).toBe(0);
    const commit = git('add a.txt') + ' && ' + git('commit -qm first') + ' && echo COMMITTED';
    expect((await sandboxed(commit, false, {}, NO_GIT, dir)).text).not.toContain('COMMITTED');
    expect((await sandboxed(commit, false, {}, READ_ONLY, dir)).text).not.toContain('COMMITTED');
    const committed = await sandboxed(commit, false, {}, GIT, dir);
    expect(committed.text).toContain('COMMITTED');
    expect(committed.exitCode).toBe(0);
  });
});
