import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderChanges } from './command-changes';
import { openFileJournal } from './file-journal';
import { cleanGitEnv } from './shadow-git';
import { ShadowSnapshot } from './shadow-snapshot';

let base = '';
let folder = '';
let dataDir = '';

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-shadow-')));
  folder = join(base, 'proj');
  dataDir = join(base, 'data');
  await mkdir(join(folder, 'sub'), { recursive: true });
  await writeFile(join(folder, '.gitignore'), '*.log\nbuild/\n');
  await writeFile(join(folder, 'a.txt'), 'one\ntwo\n');
  await writeFile(join(folder, 'b.txt'), 'bee\nbuzz\n');
  await writeFile(join(folder, 'sub', 'c.txt'), 'see\n');
  await writeFile(join(folder, 'old.log'), 'ignored\n');
  // The project's own repository, which must never be touched.
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: folder,
      env: cleanGitEnv(),
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function open(options: { maxBytes?: number } = {}) {
  const journal = await openFileJournal(join(dataDir, 'sessions', 's1', 'journal'), folder);
  const shadow = new ShadowSnapshot({
    folder,
    shadowDir: join(dataDir, 'shadow.git'),
    journal,
    ...options,
  });
  return { journal, shadow };
}

/** The approved command, run for real. */
function runCommand(script: string): void {
  execFileSync('sh', ['-c', script], { cwd: folder });
}

async function projectGitState(): Promise<string> {
  const files = await readdir(join(folder, '.git'), { recursive: true });
  const index = await readFile(join(folder, '.git', 'index'));
  return JSON.stringify([files.sort(), index.toString('base64')]);
}

describe('ShadowSnapshot', () => {
  it('shows what a command created, changed and deleted, and reverts it', async () => {
    const gitBefore = await projectGitState();
    const { shadow } = await open();
    expect(await shadow.snapshotBefore('sh1')).toMatchObject({ ok: true });
    runCommand(
      "printf 'new\\n' > new.txt; printf 'three\\n' >> a.txt; rm b.txt; echo x > more.log; mkdir -p build; echo y > build/out",
    );

    const changes = await shadow.changesSince('sh1');
    if (!changes.ok) throw new Error(changes.reason);
    expect(changes.summary).toBe('3 files changed, +2 −2');
    expect(changes.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ['a.txt', 'modified', 1, 0],
      ['b.txt', 'deleted', 0, 2],
      ['new.txt', 'added', 1, 0],
    ]);
    expect(changes.files[0]?.diff).toContain('--- a/a.txt\n+++ b/a.txt');
    expect(changes.files[0]?.diff).toContain(' two\n+three');
    expect(changes.files[1]?.diff).toContain('-bee\n-buzz');
    expect(renderChanges(changes)).toMatch(/^3 files changed, \+2 −2\nmodified a.txt \(\+1 −0\)/);

    const reverted = await shadow.revert('sh1');
    expect(reverted).toMatchObject({ ok: true });
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(await readFile(join(folder, 'b.txt'), 'utf8')).toBe('bee\nbuzz\n');
    const names = await readdir(folder);
    expect(names).not.toContain('new.txt');
    expect(names).toContain('more.log'); // Ignored by .gitignore: not tracked, so not undone.
    expect(await projectGitState()).toBe(gitBefore);
    expect(await readdir(join(dataDir, 'shadow.git'))).toContain('HEAD');
  });

  it('reports no changes for a read-only command', async () => {
    const { shadow } = await open();
    await shadow.snapshotBefore('sh1');
    runCommand('cat a.txt > /dev/null; echo ignored >> old.log');
    expect(await shadow.changesSince('sh1')).toEqual({
      ok: true,
      summary: 'no files changed',
      files: [],
    });
  });

  it('refuses to revert when a file changed after the command', async () => {
    const { shadow } = await open();
    await shadow.snapshotBefore('sh1');
    runCommand("printf 'cmd\\n' > a.txt");
    await shadow.changesSince('sh1');
    await writeFile(join(folder, 'a.txt'), 'person edited\n');
    const result = await shadow.revert('sh1');
    expect(result).toMatchObject({ ok: false, conflicts: [join(folder, 'a.txt')] });
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('person edited\n');
  });

  it('survives a restart between the command and the revert', async () => {
    const first = await open();
    await first.shadow.snapshotBefore('sh1');
    runCommand("rm sub/c.txt; printf 'x\\n' > sub/d.txt");
    expect((await first.shadow.changesSince('sh1')).ok).toBe(true);

    const second = await open();
    const again = await second.shadow.changesSince('sh1');
    expect(again).toMatchObject({ ok: true, summary: '2 files changed, +1 −1' });
    expect(await second.shadow.revert('sh1')).toMatchObject({ ok: true });
    expect(await readdir(join(folder, 'sub'))).toEqual(['c.txt']);
  });

  it('states the size cap when the project is too large', async () => {
    const { shadow } = await open({ maxBytes: 10 });
    const result = await shadow.snapshotBefore('sh1');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reason).toMatch(/above the snapshot cap of 10 bytes .* cannot be reverted/);
    expect(await shadow.changesSince('sh1')).toMatchObject({ ok: false });
  });

  it('says when no snapshot was taken', async () => {
    const { shadow } = await open();
    expect(await shadow.changesSince('never')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/No snapshot/),
    });
  });
});
