import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  appendFile,
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal, type FileJournal } from './file-journal';
import { writeFileAtomic } from './atomic-write';

let base = '';
let folder = '';
let journalDir = '';
let journal: FileJournal;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-journal-')));
  folder = join(base, 'proj');
  journalDir = join(base, 'data', 'sessions', 's1', 'journal');
  await mkdir(folder);
  journal = await openFileJournal({ dir: journalDir, folder });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const p = (rel: string) => join(folder, rel);
const read = (rel: string) => readFile(p(rel), 'utf8');

/** What a write tool does: before-image, change, after-image. */
async function change(
  callId: string,
  rel: string,
  content: string | null,
  j = journal,
): Promise<void> {
  await j.recordBefore(p(rel), callId);
  if (content === null) await unlink(p(rel));
  else await writeFileAtomic(p(rel), content);
  await j.recordAfter(p(rel), callId);
}

describe('FileJournal', () => {
  it('reverts a modification, keeping the mode', async () => {
    await writeFile(p('a.txt'), 'before\n');
    await chmod(p('a.txt'), 0o700);
    await change('c1', 'a.txt', 'after\n');
    const result = await journal.revert('c1');
    expect(result).toEqual({
      ok: true,
      callId: 'c1',
      files: [{ path: p('a.txt'), action: 'restored' }],
      message: `Reverted call c1: restored ${p('a.txt')}`,
    });
    expect(await read('a.txt')).toBe('before\n');
    expect((await stat(p('a.txt'))).mode & 0o777).toBe(0o700);
  });

  it('reverts a creation by deleting the file and the folders made for it', async () => {
    await change('c1', 'new/deep/file.txt', 'hello');
    expect(await journal.revert('c1')).toMatchObject({ ok: true, files: [{ action: 'deleted' }] });
    expect(await readdir(folder)).toEqual([]);
  });

  it('reverts a deletion by recreating the file', async () => {
    await writeFile(p('gone.txt'), 'precious');
    await change('c1', 'gone.txt', null);
    expect(await journal.revert('c1')).toMatchObject({ ok: true });
    expect(await read('gone.txt')).toBe('precious');
  });

  it('refuses with a clear message when the file changed since, and changes nothing', async () => {
    await writeFile(p('a.txt'), 'v1');
    await change('c1', 'a.txt', 'v2');
    await writeFile(p('a.txt'), 'edited by the person');
    const result = await journal.revert('c1');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toBe(
        `Not reverted: 1 file(s) changed since call c1 wrote them: ${p('a.txt')}. Revert later calls first, or fix these by hand.`,
      );
      expect(result.conflicts).toEqual([p('a.txt')]);
    }
    expect(await read('a.txt')).toBe('edited by the person');
  });

  it('refuses an older call while a newer one changed the same file, and reverts a whole turn newest first', async () => {
    await writeFile(p('a.txt'), 'v1');
    await change('c1', 'a.txt', 'v2');
    await change('c2', 'a.txt', 'v3');
    await change('c3', 'b.txt', 'new');
    expect((await journal.revert('c1')).ok).toBe(false);
    const turn = await journal.revertTurn(['c1', 'c2', 'c3', 'read-only-call']);
    expect(turn).toEqual({
      ok: true,
      reverted: ['c3', 'c2', 'c1'],
      files: [
        { path: p('b.txt'), action: 'deleted' },
        { path: p('a.txt'), action: 'restored' },
      ],
      message: 'Reverted 3 call(s).',
    });
    expect(await read('a.txt')).toBe('v1');
    expect(await readdir(folder)).toEqual(['a.txt']);
  });

  it('refuses an older call whose file a newer call put back as it was, until that one is undone', async () => {
    // c1 creates the file, c2 deletes it: the file is as before c1, but only because of c2.
    await change('c1', 'a.txt', 'one');
    await change('c2', 'a.txt', null);
    expect(await journal.revert('c1')).toMatchObject({ ok: false, conflicts: [p('a.txt')] });
    expect(journal.hasChanges('c1')).toBe(true);
    expect(await journal.revert('c2')).toMatchObject({ ok: true });
    expect(await read('a.txt')).toBe('one');
    expect(await journal.revert('c1')).toMatchObject({ ok: true, files: [{ action: 'deleted' }] });
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses an older call whose file looks as it left it only because of newer calls', async () => {
    await writeFile(p('a.txt'), 'v1');
    await change('c1', 'a.txt', 'v2');
    await change('c2', 'a.txt', null);
    await change('c3', 'a.txt', 'v2');
    expect(await journal.revert('c1')).toMatchObject({ ok: false, conflicts: [p('a.txt')] });
    expect(await read('a.txt')).toBe('v2');
    const turn = await journal.revertTurn(['c1', 'c2', 'c3']);
    expect(turn).toMatchObject({ ok: true, reverted: ['c3', 'c2', 'c1'] });
    expect(await read('a.txt')).toBe('v1');
  });

  it('does not hold an older call back for a newer one that wrote the same bytes', async () => {
    await writeFile(p('a.txt'), 'v1');
    await change('c1', 'a.txt', 'v2');
    await change('c2', 'a.txt', 'v2');
    expect(await journal.revert('c1')).toMatchObject({ ok: true });
    expect(await read('a.txt')).toBe('v1');
  });

  it('counts a file already put back by hand as undone', async () => {
    await change('c1', 'a.txt', 'one');
    await unlink(p('a.txt'));
    expect(await journal.revert('c1')).toMatchObject({
      ok: true,
      files: [],
      message: 'Call c1: files were already as before.',
    });
    expect(journal.hasChanges('c1')).toBe(false);
  });

  it('stops a turn at the first conflict and says which call', async () => {
    await writeFile(p('a.txt'), 'v1');
    await change('c1', 'a.txt', 'v2');
    await change('c2', 'b.txt', 'b');
    await writeFile(p('a.txt'), 'outside');
    const turn = await journal.revertTurn(['c1', 'c2']);
    expect(turn).toMatchObject({ ok: false, reverted: ['c2'], failedCallId: 'c1' });
  });

  it('refuses a second revert and an unknown call', async () => {
    await change('c1', 'a.txt', 'x');
    expect((await journal.revert('c1')).ok).toBe(true);
    expect(await journal.revert('c1')).toMatchObject({
      ok: false,
      reason: 'Call c1 was already reverted.',
    });
    expect(await journal.revert('nope')).toMatchObject({
      ok: false,
      reason: 'No file changes were recorded for call nope.',
    });
  });

  it('keeps only the first before-image of a call', async () => {
    await writeFile(p('a.txt'), 'original');
    await journal.recordBefore(p('a.txt'), 'c1');
    await writeFile(p('a.txt'), 'intermediate');
    await change('c1', 'a.txt', 'final');
    await journal.revert('c1');
    expect(await read('a.txt')).toBe('original');
  });

  it('survives a restart: a new instance reads the same folder and reverts', async () => {
    await writeFile(p('a.txt'), 'v1');
    await change('c1', 'a.txt', 'v2');
    await change('c2', 'b.txt', 'created');
    const reopened = await openFileJournal({ dir: journalDir, folder });
    expect(reopened.hasChanges('c1')).toBe(true);
    expect(await reopened.revertTurn(['c1', 'c2'])).toMatchObject({
      ok: true,
      reverted: ['c2', 'c1'],
    });
    expect(await read('a.txt')).toBe('v1');
    const again = await openFileJournal({ dir: journalDir, folder });
    expect(again.hasChanges('c1')).toBe(false); // The revert was persisted too.
  });

  it('ignores a line cut short by a crash', async () => {
    await change('c1', 'a.txt', 'x');
    await writeFile(
      join(journalDir, 'journal.jsonl'),
      (await readFile(join(journalDir, 'journal.jsonl'), 'utf8')) + '{"type":"bef',
    );
    const reopened = await openFileJournal({ dir: journalDir, folder });
    expect((await reopened.revert('c1')).ok).toBe(true);
  });
});

describe('FileJournal write-ahead (issue 10 item 6)', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');

  /** What a crash between the intent and the completion leaves: the intent line, a temp. */
  async function crashedWrite(rel: string, planned: string, renamed: boolean): Promise<string> {
    await journal.write(p('seed.txt'), 'seed', 'x'); // The journal's own files exist.
    const before = await journal.objects.putFile(folder, p(rel));
    const temp = join(folder, `.${rel}.tandem-0123456789ab.tmp`);
    await writeFile(temp, planned);
    const intent = {
      type: 'write-intent',
      seq: 9,
      callId: 'c1',
      path: p(rel),
      before: { kind: 'file', sha256: before!.sha256, size: before!.size, mode: 0o644 },
      planned: { sha256: sha(planned), size: planned.length },
      temp,
    };
    await appendFile(join(journalDir, 'journal.jsonl'), JSON.stringify(intent) + '\n');
    if (renamed) await rename(temp, p(rel));
    return temp;
  }

  it('completes a write that reached the disk, so it can be reverted', async () => {
    await writeFile(p('a.txt'), 'old\n');
    await chmod(p('a.txt'), 0o644);
    await crashedWrite('a.txt', 'new\n', true);
    const reopened = await openFileJournal({ dir: journalDir, folder });
    expect(await reopened.reconcile()).toEqual([
      { kind: 'write', callId: 'c1', path: p('a.txt'), outcome: 'completed' },
    ]);
    expect(await reopened.revert('c1')).toMatchObject({ ok: true });
    expect(await read('a.txt')).toBe('old\n');
  });

  it('drops a write that never happened and deletes its temp file', async () => {
    await writeFile(p('a.txt'), 'old\n');
    await chmod(p('a.txt'), 0o644);
    const temp = await crashedWrite('a.txt', 'new\n', false);
    const reopened = await openFileJournal({ dir: journalDir, folder });
    expect(await reopened.reconcile()).toEqual([
      { kind: 'write', callId: 'c1', path: p('a.txt'), outcome: 'not-run' },
    ]);
    expect(existsSync(temp)).toBe(false);
    expect(reopened.hasChanges('c1')).toBe(false);
    expect(await read('a.txt')).toBe('old\n');
    // Settled for good: the next open finds nothing to do.
    expect(await (await openFileJournal({ dir: journalDir, folder })).reconcile()).toEqual([]);
  });

  it('skips lines that are not records (a null line, garbage) and says how many', async () => {
    await change('c1', 'a.txt', 'x');
    await appendFile(join(journalDir, 'journal.jsonl'), 'null\n[1,2]\n{"type":"before"}\n');
    const reopened = await openFileJournal({ dir: journalDir, folder });
    expect(reopened.loadProblems).toHaveLength(3);
    expect((await reopened.revert('c1')).ok).toBe(true);
  });

  it('never hands out a sequence number twice, across reopenings', async () => {
    await change('c1', 'a.txt', 'x');
    await (await openFileJournal({ dir: journalDir, folder })).write(p('b.txt'), 'c2', 'y');
    await (await openFileJournal({ dir: journalDir, folder })).beginCommand('c3');
    const seqs = (await readFile(join(journalDir, 'journal.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { seq?: number }).seq)
      .filter((seq) => seq !== undefined);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('reads a journal an older version wrote, with its content in journal/blobs', async () => {
    await writeFile(p('a.txt'), 'v2');
    const old = Buffer.from('v1');
    const hash = sha('v1');
    await mkdir(join(journalDir, 'blobs', hash.slice(0, 2)), { recursive: true });
    await writeFile(join(journalDir, 'blobs', hash.slice(0, 2), hash), old);
    const lines = [
      {
        type: 'before',
        seq: 1,
        callId: 'old',
        path: p('a.txt'),
        image: { kind: 'file', sha256: hash, size: 2, mode: 0o644 },
      },
      {
        type: 'after',
        callId: 'old',
        path: p('a.txt'),
        image: { kind: 'file', sha256: sha('v2'), size: 2, mode: 0o644 },
      },
    ];
    await writeFile(
      join(journalDir, 'journal.jsonl'),
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    await chmod(p('a.txt'), 0o644);
    const reopened = await openFileJournal({ dir: journalDir, folder });
    expect(existsSync(join(journalDir, 'blobs'))).toBe(false);
    expect(await reopened.revert('old')).toMatchObject({ ok: true });
    expect(await read('a.txt')).toBe('v1');
  });
});
