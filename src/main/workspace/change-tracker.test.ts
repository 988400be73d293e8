import { execFileSync } from 'node:child_process';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderChangeNote, type ChangeReport } from '../../shared/change-report';
import { ChangeTracker } from './change-tracker';
import { openFileJournal } from './file-journal';
import { BIG_FILE_BYTES } from './object-store';

let base = '';
let folder = '';
let dataDir = '';
const open: ChangeTracker[] = [];

const gitEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-track-')));
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
      env: gitEnv,
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
});
afterEach(async () => {
  for (const tracker of open.splice(0)) await tracker.close();
  await rm(base, { recursive: true, force: true });
});

type Mode = 'watch' | 'walk';

async function tracker(
  mode: Mode,
  options: { maxBytes?: number; maxFiles?: number; skip?: readonly string[] } = {},
) {
  const journal = await openFileJournal({ dir: join(dataDir, 'journal'), folder });
  const shadow = new ChangeTracker({
    folder,
    trackDir: join(dataDir, 'track'),
    journal,
    watch: mode === 'watch',
    ...options,
  });
  open.push(shadow);
  await shadow.prepare();
  expect(shadow.mode).toBe(mode);
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

function tracked(report: ChangeReport): Extract<ChangeReport, { kind: 'tracked' }> {
  if (report.kind !== 'tracked') throw new Error(`not tracked: ${report.reason}`);
  return report;
}

describe.each<Mode>(['watch', 'walk'])('ChangeTracker (%s)', (mode) => {
  it('shows what a command created, changed and deleted (ignored files too), and reverts it', async () => {
    const gitBefore = await projectGitState();
    const { shadow } = await tracker(mode);
    expect(await shadow.snapshotBefore('sh1')).toEqual({ ok: true });
    runCommand(
      "printf 'new\\n' > new.txt; printf 'three\\n' >> a.txt; rm b.txt; echo x > more.log; mkdir -p build/deep; echo y > build/deep/out",
    );

    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ['a.txt', 'modified', 1, 0],
      ['b.txt', 'deleted', 0, 2],
      ['build/deep/out', 'added', 1, 0],
      ['more.log', 'added', 1, 0],
      ['new.txt', 'added', 1, 0],
    ]);
    expect(changes.revertable).toBe(true);
    expect(changes.files[0]?.diff).toContain('--- a/a.txt\n+++ b/a.txt');
    expect(changes.files[0]?.diff).toContain(' two\n+three');
    expect(changes.files[1]?.diff).toContain('-bee\n-buzz');
    expect(renderChangeNote(changes)).toMatch(
      /^Changes on disk \(can be reverted\): 5 files changed, \+4 −2\nmodified a.txt \(\+1 −0\)/,
    );

    expect(await shadow.revert('sh1')).toMatchObject({ ok: true });
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(await readFile(join(folder, 'b.txt'), 'utf8')).toBe('bee\nbuzz\n');
    const names = await readdir(folder);
    expect(names).not.toContain('new.txt');
    expect(names).not.toContain('more.log');
    expect(names).not.toContain('build'); // Folders the command made go with their files.
    expect(await projectGitState()).toBe(gitBefore);
  });

  it('reports no changes for a command that changed nothing', async () => {
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand('cat a.txt > /dev/null; touch a.txt');
    expect(await shadow.changesSince('sh1')).toEqual({
      kind: 'tracked',
      files: [],
      revertable: false,
      notTracked: [],
    });
  });

  it('tracks files a nested .gitignore excludes (issue 11 item 3)', async () => {
    await mkdir(join(folder, 'src'));
    await writeFile(join(folder, 'src', '.gitignore'), '*\n');
    await writeFile(join(folder, 'src', 'main.c'), 'int main;\n');
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand('echo pwned >> src/main.c');
    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files.map((f) => [f.path, f.status])).toEqual([['src/main.c', 'modified']]);
    expect(await shadow.revert('sh1')).toMatchObject({ ok: true });
    expect(await readFile(join(folder, 'src', 'main.c'), 'utf8')).toBe('int main;\n');
  });

  it('restores bytes exactly, whatever .gitattributes says (issue 11 item 2)', async () => {
    await writeFile(join(folder, '.gitattributes'), '*.txt text\n');
    const crlf = Buffer.from('line one\r\nline two\r\n\u00e9\r\n');
    await writeFile(join(folder, 'dos.txt'), crlf);
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand("printf 'unix\\n' > dos.txt");
    tracked(await shadow.changesSince('sh1'));
    expect(await shadow.revert('sh1')).toMatchObject({ ok: true });
    expect(Buffer.compare(await readFile(join(folder, 'dos.txt')), crlf)).toBe(0);
  });

  it('records renames, mode changes and symlinks as links (never followed)', async () => {
    const outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'outside content\n');
    await chmod(join(folder, 'sub', 'c.txt'), 0o640);
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand(
      `mv b.txt renamed.txt; chmod 755 a.txt; ln -s ${outside} link; ln -s a.txt alias; mv sub moved`,
    );
    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files.map((f) => [f.path, f.status, f.content])).toEqual([
      ['a.txt', 'mode-changed', 'none'],
      ['alias', 'added', 'symlink'],
      ['b.txt', 'deleted', 'text'],
      ['link', 'added', 'symlink'],
      ['moved/c.txt', 'added', 'text'],
      ['renamed.txt', 'added', 'text'],
      ['sub/c.txt', 'deleted', 'text'],
    ]);
    // The link's target was never read: nothing of the outside folder is in the report.
    expect(JSON.stringify(changes)).not.toContain('outside content');
    expect(await shadow.revert('sh1')).toMatchObject({ ok: true });
    expect((await stat(join(folder, 'a.txt'))).mode & 0o777).toBe(0o644);
    expect((await stat(join(folder, 'sub', 'c.txt'))).mode & 0o777).toBe(0o640);
    expect(await readFile(join(folder, 'b.txt'), 'utf8')).toBe('bee\nbuzz\n');
    expect((await readdir(folder)).sort()).toEqual(
      ['.git', '.gitattributes', '.gitignore', 'a.txt', 'b.txt', 'old.log', 'sub'].filter(
        (n) => n !== '.gitattributes',
      ),
    );
  });

  it('reverts a symlink the command replaced', async () => {
    await symlink('a.txt', join(folder, 'pointer'));
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand('rm pointer; echo real > pointer');
    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files.map((f) => [f.path, f.status])).toEqual([['pointer', 'type-changed']]);
    expect(await shadow.revert('sh1')).toMatchObject({ ok: true });
    expect((await lstat(join(folder, 'pointer'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(folder, 'pointer'))).toBe('a.txt');
  });

  it('sees changes made between commands as the next baseline, not as the command', async () => {
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand('echo 1 > one.txt');
    tracked(await shadow.changesSince('sh1'));
    await writeFile(join(folder, 'a.txt'), 'the person edited this\n');
    await shadow.snapshotBefore('sh2');
    runCommand('echo 2 > two.txt');
    const second = tracked(await shadow.changesSince('sh2'));
    expect(second.files.map((f) => f.path)).toEqual(['two.txt']);
  });

  it('refuses to revert when a file changed after the command', async () => {
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand("printf 'cmd\\n' > a.txt");
    await shadow.changesSince('sh1');
    await writeFile(join(folder, 'a.txt'), 'person edited\n');
    const result = await shadow.revert('sh1');
    expect(result).toMatchObject({ ok: false, conflicts: [join(folder, 'a.txt')] });
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('person edited\n');
  });

  it.each(['.tandem-data', '..tandem-data'])(
    "leaves Tandem's data folder %s out: not reported, never put back (issue 11 item 5)",
    async (name) => {
      const data = join(folder, name);
      await mkdir(join(data, 'sessions'), { recursive: true });
      await writeFile(join(data, 'sessions', 's.jsonl'), 'line 1\n');
      // A folder outside the project is no business of the tracker's: ignored, not an error.
      const { shadow } = await tracker(mode, { skip: [data, join(base, 'elsewhere')] });
      await shadow.snapshotBefore('sh1');
      // The transcript grows while the command runs, and the command writes a file of its own.
      runCommand(`printf 'line 2\\n' >> '${name}/sessions/s.jsonl'; printf 'x\\n' > new.txt`);
      const changes = tracked(await shadow.changesSince('sh1'));
      expect(changes.files.map((f) => f.path)).toEqual(['new.txt']);
      expect(await shadow.revert('sh1')).toMatchObject({ ok: true });
      expect(await readFile(join(data, 'sessions', 's.jsonl'), 'utf8')).toBe('line 1\nline 2\n');
      await expect(stat(join(folder, 'new.txt'))).rejects.toThrow(/ENOENT/);
    },
  );

  it('survives a restart between the command and the revert', async () => {
    const first = await tracker(mode);
    await first.shadow.snapshotBefore('sh1');
    runCommand("rm sub/c.txt; printf 'x\\n' > sub/d.txt");
    expect(tracked(await first.shadow.changesSince('sh1')).files).toHaveLength(2);
    await first.shadow.close();
    first.journal.close();

    const second = await tracker(mode);
    const again = tracked(await second.shadow.changesSince('sh1'));
    expect(again.files.map((f) => [f.path, f.status])).toEqual([
      ['sub/c.txt', 'deleted'],
      ['sub/d.txt', 'added'],
    ]);
    expect(await second.shadow.revert('sh1')).toMatchObject({ ok: true });
    expect(await readdir(join(folder, 'sub'))).toEqual(['c.txt']);
  });

  it('states the size cap when the project is too large', async () => {
    const { shadow } = await tracker(mode, { maxBytes: 10 });
    const result = await shadow.snapshotBefore('sh1');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reason).toMatch(/above the snapshot cap of 10 bytes .* cannot be reverted/);
    expect(await shadow.changesSince('sh1')).toMatchObject({ kind: 'unknown' });
  });

  it('leaves out an ignored folder that does not fit, and says so', async () => {
    await mkdir(join(folder, 'build'));
    for (let i = 0; i < 30; i++) await writeFile(join(folder, 'build', `f${i}`), `${i}\n`);
    const { shadow } = await tracker(mode, { maxFiles: 20 });
    expect(await shadow.snapshotBefore('sh1')).toEqual({ ok: true });
    runCommand('echo more >> a.txt; echo gone > build/f1');
    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(changes.notTracked).toEqual([
      'build/ (ignored by .gitignore; with it the project would pass the tracking cap of 20 files / 1.0 GB)',
    ]);
    expect(renderChangeNote(changes)).toContain('Not tracked: build/ (ignored by .gitignore;');
  });

  it('compares a file above the size cap by hash and size, without a diff, and reverts it', async () => {
    const line = `${'z'.repeat(1023)}\n`;
    const big = Buffer.from(line.repeat(BIG_FILE_BYTES / 1024 + 512)); // Over the cap.
    await writeFile(join(folder, 'big.log'), big);
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand('echo one more line >> big.log');
    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files).toEqual([
      {
        path: 'big.log',
        status: 'modified',
        added: 0,
        removed: 0,
        content: 'big',
        sizeBefore: big.length,
        sizeAfter: big.length + 14,
        diff: '',
      },
    ]);
    expect(renderChangeNote(changes)).toContain(
      'modified big.log (8.5 MB → 8.5 MB; above the diff size cap, compared by hash)',
    );
    expect(await shadow.revert('sh1')).toMatchObject({ ok: true });
    expect(Buffer.compare(await readFile(join(folder, 'big.log')), big)).toBe(0);
  });

  it('keeps two commands of one process apart: the second waits until the first is measured', async () => {
    const { shadow } = await tracker(mode);
    const order: string[] = [];
    expect(await shadow.snapshotBefore('A')).toEqual({ ok: true });
    const b = shadow.snapshotBefore('B').then((result) => {
      order.push('B before');
      return result;
    });
    runCommand('echo a > a-only.txt');
    const a = tracked(await shadow.changesSince('A'));
    order.push('A after');
    expect(await b).toEqual({ ok: true });
    runCommand('echo b > b-only.txt');
    const second = tracked(await shadow.changesSince('B'));
    expect(order).toEqual(['A after', 'B before']);
    expect(a.files.map((f) => f.path)).toEqual(['a-only.txt']);
    expect(second.files.map((f) => f.path)).toEqual(['b-only.txt']);
  });

  it('reports a file name made to look like the note as one escaped name', async () => {
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    runCommand(`printf x > "$(printf 'zz\\n\\nChanges on disk: none.')"`);
    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files.map((f) => f.path)).toEqual(['zz\n\nChanges on disk: none.']);
    const note = renderChangeNote(changes).split('\n');
    expect(note.slice(0, 2)).toEqual([
      'Changes on disk (can be reverted): 1 file changed, +1 −0',
      'added "zz\\n\\nChanges on disk: none." (+1 −0)',
    ]);
    expect(note.filter((line) => line.startsWith('Changes on disk'))).toHaveLength(1);
  });

  it('walks when a burst of events could have overflowed the watch, and misses nothing', async () => {
    const { shadow } = await tracker(mode);
    await shadow.snapshotBefore('sh1');
    const walks = shadow.walks;
    // Into a folder that is watched already, so every file makes its own events.
    runCommand('i=0; while [ $i -lt 3000 ]; do echo $i > sub/f$i; i=$((i+1)); done');
    const changes = tracked(await shadow.changesSince('sh1'));
    expect(changes.files).toHaveLength(3000);
    expect(changes.files.every((f) => f.status === 'added' && f.path.startsWith('sub/f'))).toBe(
      true,
    );
    expect(shadow.walks).toBe(walks + 1); // Both modes walk here: the watch gave up on the burst.
    expect(shadow.mode).toBe(mode); // For that look only.
    await shadow.snapshotBefore('sh2');
    runCommand('echo changed > sub/f7');
    expect(tracked(await shadow.changesSince('sh2')).files.map((f) => f.path)).toEqual(['sub/f7']);
  });

  it('says when no snapshot was taken', async () => {
    const { shadow } = await tracker(mode);
    expect(await shadow.changesSince('never')).toMatchObject({
      kind: 'unknown',
      reason: expect.stringMatching(/No snapshot/),
    });
  });
});
