import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardPath, isInside, isInsideGitDir } from './path-guard';

let base = '';
let proj = '';
let socketServer: Server | undefined;
let hasDevice = false;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-guard-')));
  proj = join(base, 'proj');
  await mkdir(join(proj, 'src', 'deep'), { recursive: true });
  await mkdir(join(proj, '.git'), { recursive: true });
  await mkdir(join(proj, 'long'));
  await mkdir(join(proj, '日本語'), { recursive: true });
  await mkdir(join(base, 'outside', 'dir'), { recursive: true });
  await mkdir(join(base, 'proj-evil'), { recursive: true });
  await writeFile(join(proj, 'a.txt'), 'a\n');
  await writeFile(join(proj, 'src', 'b.ts'), 'b\n');
  await writeFile(join(proj, '日本語', 'ファイル.txt'), 'u\n');
  await writeFile(join(base, 'outside', 'secret.txt'), 'secret\n');
  await writeFile(join(base, 'proj-evil', 'x.txt'), 'evil\n');
  const links: [string, string][] = [
    ['link-out-file', join(base, 'outside', 'secret.txt')],
    ['link-out-dir', join(base, 'outside')],
    ['link-out-rel', '../outside/secret.txt'],
    ['link-in-file', 'a.txt'],
    ['link-in-dir', 'src'],
    ['link-in-abs', join(proj, 'src', 'b.ts')],
    ['chain1', 'chain2'],
    ['chain2', 'chain3'],
    ['chain3', join(base, 'outside', 'secret.txt')],
    ['chain-in1', 'chain-in2'],
    ['chain-in2', 'src/deep'],
    ['dangling-out', join(base, 'outside', 'nope.txt')],
    ['dangling-out-rel', '../outside/new-dir/new.txt'],
    ['dangling-in', 'created-later.txt'],
    ['loop1', 'loop2'],
    ['loop2', 'loop1'],
    ['to-evil', '../proj-evil'],
    ['to-root', '/'],
    ['dev-null', '/dev/null'],
  ];
  for (const [name, target] of links) await symlink(target, join(proj, name));
  await symlink(proj, join(base, 'proj-link'));
  execFileSync('mkfifo', [join(proj, 'pipe')]);
  try {
    execFileSync('mknod', [join(proj, 'nulldev'), 'c', '1', '3'], { stdio: 'ignore' });
    hasDevice = true;
  } catch {
    hasDevice = false; // Not permitted here (no root or a restricted container).
  }
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer?.listen(join(proj, 'sock'), resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) =>
    socketServer ? socketServer.close(() => resolve()) : resolve(),
  );
  // coreutils rm walks by descriptor; Node's rm cannot delete a path longer than PATH_MAX.
  execFileSync('rm', ['-rf', base]);
});

type Expect = { ok: true; rel: string } | { ok: false; reason: RegExp };
type Case = [label: string, requested: () => string, access: 'read' | 'write', expected: Expect];

const inside = (rel: string): Expect => ({ ok: true, rel });
const outside: Expect = { ok: false, reason: /outside the project folder/ };
const refused = (reason: RegExp): Expect => ({ ok: false, reason });

const cases: Case[] = [
  ['plain relative file', () => 'a.txt', 'read', inside('a.txt')],
  ['nested file', () => 'src/b.ts', 'read', inside('src/b.ts')],
  ['the folder itself as "."', () => '.', 'read', inside('.')],
  ['empty path means the folder', () => '', 'read', inside('.')],
  ['absolute path inside', () => join(proj, 'src', 'b.ts'), 'read', inside('src/b.ts')],
  ['absolute path to the folder', () => proj, 'read', inside('.')],
  ['dot segments', () => './src/./b.ts', 'read', inside('src/b.ts')],
  ['trailing slash on a folder', () => 'src/', 'read', inside('src')],
  ['double slashes', () => 'src//deep//', 'read', inside('src/deep')],
  ['.. that stays inside', () => 'src/../a.txt', 'read', inside('a.txt')],
  ['.. escape', () => '../outside/secret.txt', 'read', outside],
  ['deep .. escape', () => 'src/deep/../../../outside/secret.txt', 'read', outside],
  ['.. to the parent folder', () => '..', 'read', outside],
  ['.. out and back in', () => '../proj/a.txt', 'read', inside('a.txt')],
  ['absolute path outside', () => '/etc/passwd', 'read', outside],
  ['absolute path outside for write', () => '/tmp/tandem-evil.txt', 'write', outside],
  ['root', () => '/', 'read', outside],
  ['sibling-prefix folder', () => join(base, 'proj-evil', 'x.txt'), 'read', outside],
  ['sibling-prefix via ..', () => '../proj-evil/x.txt', 'write', outside],
  ['symlink to sibling-prefix folder', () => 'to-evil/x.txt', 'read', outside],
  ['symlinked file pointing out (read)', () => 'link-out-file', 'read', outside],
  ['symlinked file pointing out (write)', () => 'link-out-file', 'write', outside],
  ['relative symlink pointing out', () => 'link-out-rel', 'read', outside],
  ['symlinked folder pointing out', () => 'link-out-dir/secret.txt', 'read', outside],
  ['new file under symlinked folder out', () => 'link-out-dir/new.txt', 'write', outside],
  ['symlink to / then etc', () => 'to-root/etc/passwd', 'read', outside],
  ['symlink inside to a file', () => 'link-in-file', 'read', inside('a.txt')],
  ['write through symlink inside', () => 'link-in-file', 'write', inside('a.txt')],
  ['symlinked folder inside', () => 'link-in-dir/b.ts', 'read', inside('src/b.ts')],
  ['absolute symlink inside', () => 'link-in-abs', 'read', inside('src/b.ts')],
  ['symlink chain pointing out', () => 'chain1', 'read', outside],
  ['symlink chain staying inside', () => 'chain-in1', 'read', inside('src/deep')],
  [
    '.. after a symlinked folder follows the real parent',
    () => 'link-out-dir/../proj/a.txt',
    'read',
    inside('a.txt'),
  ],
  [
    '.. after an outside symlink lands outside',
    () => 'link-out-dir/../outside/secret.txt',
    'read',
    outside,
  ],
  ['dangling symlink pointing out (read)', () => 'dangling-out', 'read', outside],
  ['dangling symlink pointing out (write)', () => 'dangling-out', 'write', outside],
  ['dangling relative symlink pointing out (write)', () => 'dangling-out-rel', 'write', outside],
  [
    'dangling symlink pointing inside (write)',
    () => 'dangling-in',
    'write',
    inside('created-later.txt'),
  ],
  ['symlink loop', () => 'loop1', 'read', refused(/too many levels of symbolic links/)],
  [
    'folder reached through a symlink (absolute)',
    () => join(base, 'proj-link', 'a.txt'),
    'read',
    inside('a.txt'),
  ],
  ['new file in a new folder', () => 'new/dir/file.txt', 'write', inside('new/dir/file.txt')],
  ['missing then .. back inside', () => 'missing/../a.txt', 'read', inside('a.txt')],
  ['missing then .. escape', () => 'missing/../../outside/x', 'write', outside],
  ['missing then symlink out via ..', () => 'missing/../link-out-dir/x', 'write', outside],
  ['NUL byte', () => 'a.txt\0.png', 'read', refused(/NUL byte/)],
  ['NUL byte in a write', () => 'src/\0', 'write', refused(/NUL byte/)],
  ['very long name', () => 'x'.repeat(300), 'write', refused(/longer than 255 bytes/)],
  ['name of exactly 255 bytes', () => 'y'.repeat(255), 'write', inside('y'.repeat(255))],
  ['very long path', () => 'a/'.repeat(2100), 'read', refused(/characters long/)],
  ['unicode names', () => '日本語/ファイル.txt', 'read', inside('日本語/ファイル.txt')],
  ['new unicode file', () => '日本語/新しい.txt', 'write', inside('日本語/新しい.txt')],
  ['~ is not expanded', () => '~/.ssh/id_rsa', 'read', inside('~/.ssh/id_rsa')],
  ['~ alone is a plain name', () => '~', 'write', inside('~')],
  ['FIFO refused', () => 'pipe', 'read', refused(/FIFO/)],
  ['FIFO refused for write', () => 'pipe', 'write', refused(/FIFO/)],
  ['socket refused', () => 'sock', 'read', refused(/socket/)],
  ['device via symlink is outside', () => 'dev-null', 'write', outside],
  ['path through a file', () => 'a.txt/x', 'read', refused(/is a file, not a folder/)],
  ['.git writes are allowed by the guard', () => '.git/config', 'write', inside('.git/config')],
  [
    'backslash is an ordinary character on POSIX',
    () => '..\\outside',
    'read',
    inside('..\\outside'),
  ],
];

describe('guardPath', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s', async (_label, requested, access, expected) => {
    const result = await guardPath(proj, requested(), access);
    if (expected.ok) {
      expect(result).toEqual({
        ok: true,
        root: proj,
        path: join(proj, expected.rel),
        relative: expected.rel,
      });
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(expected.reason);
    }
  });

  it('names where an escape resolves to', async () => {
    const result = await guardPath(proj, 'link-out-file', 'read');
    expect(result).toEqual({
      ok: false,
      reason: `link-out-file resolves to ${join(base, 'outside', 'secret.txt')}, outside the project folder`,
    });
  });

  it('accepts the folder given through a symlink', async () => {
    const result = await guardPath(join(base, 'proj-link'), 'src/b.ts', 'read');
    expect(result).toEqual({
      ok: true,
      root: proj,
      path: join(proj, 'src', 'b.ts'),
      relative: 'src/b.ts',
    });
  });

  // Issue 9 row 10: resolving past PATH_MAX fails with ENAMETOOLONG; that must be a refusal.
  it('refuses a short path that resolves, through a symlink, past the length limit', async () => {
    const name = 'd'.repeat(200);
    makeDeep(join(proj, 'long'), name, 22, join(base, 'outside'));
    await symlink(`long/${`${name}/`.repeat(11)}`, join(proj, 'short'));
    const requested = `short/${`${name}/`.repeat(11)}s/secret.txt`;
    expect(requested.length).toBeLessThan(4096);
    for (const access of ['read', 'write'] as const) {
      const result = await guardPath(proj, requested, access);
      expect(result).toEqual({ ok: false, reason: 'the path is too long' });
    }
  });

  it('refuses a device file inside the folder', async (ctx) => {
    if (!hasDevice) ctx.skip();
    const result = await guardPath(proj, 'nulldev', 'read');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/character device/);
  });

  it('refuses when the folder does not exist', async () => {
    const result = await guardPath(join(base, 'gone'), 'a.txt', 'read');
    expect(result.ok).toBe(false);
  });
});

/** `depth` nested folders named `name` (one at a time: the whole is longer than PATH_MAX). */
function makeDeep(at: string, name: string, depth: number, linkTo?: string): void {
  const script =
    'import os, sys\nos.chdir(sys.argv[1])\nfor _ in range(int(sys.argv[3])):\n' +
    '    os.mkdir(sys.argv[2]); os.chdir(sys.argv[2])\nif len(sys.argv) > 4: os.symlink(sys.argv[4], "s")\n';
  execFileSync('python3', ['-c', script, at, name, String(depth), ...(linkTo ? [linkTo] : [])]);
}

describe('isInside / isInsideGitDir', () => {
  it.each([
    ['/a/proj', '/a/proj', true],
    ['/a/proj', '/a/proj/x', true],
    ['/a/proj', '/a/proj-evil', false],
    ['/a/proj', '/a/pro', false],
    ['/', '/etc', true],
  ])('isInside(%s, %s) = %s', (root, candidate, expected) => {
    expect(isInside(root, candidate)).toBe(expected);
  });

  it.each([
    ['.git', true],
    ['.git/hooks/pre-commit', true],
    ['sub/.git/config', true],
    ['.GIT/config', true],
    ['.gitignore', false],
    ['src/git/x', false],
  ])('isInsideGitDir(%s) = %s', (relative, expected) => {
    expect(isInsideGitDir(relative)).toBe(expected);
  });
});
