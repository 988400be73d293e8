// A damaged or crafted data folder (issue 15 attack, target 2): an object whose bytes do not match
// its name, an object that is a symlink to a file outside, journal lines naming paths outside the
// project. Revert and reconcile must refuse them: never write outside, never put wrong bytes back
// silently, never copy a file from outside into the project.
import {
  appendFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write';
import { describeCommandFiles } from './command-changes';
import { openFileJournal, type FileJournal } from './file-journal';

let base = '';
let folder = '';
let outside = '';
let journalDir = '';
let journal: FileJournal;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-crafted-')));
  folder = join(base, 'proj');
  outside = join(base, 'outside');
  journalDir = join(base, 'data', 'journal');
  await mkdir(folder);
  await mkdir(outside);
  await writeFile(join(outside, 'secret'), 'private key\n');
  journal = await openFileJournal({ dir: journalDir, folder });
});
afterEach(async () => {
  journal.close();
  await rm(base, { recursive: true, force: true });
});

/** A write tool's call: the file was `before`, the call made it `after`; returns the object path. */
async function changed(callId: string, before: string, after: string): Promise<string> {
  const file = join(folder, 'a.txt');
  await writeFile(file, before);
  await journal.recordBefore(file, callId);
  await writeFileAtomic(file, after);
  await journal.recordAfter(file, callId);
  const { createHash } = await import('node:crypto');
  return journal.objects.pathOf(createHash('sha256').update(before).digest('hex'));
}

describe('objects that are not what their name says', () => {
  it('does not restore bytes that do not match the recorded hash', async () => {
    const object = await changed('c1', 'the original\n', 'the change\n');
    await writeFile(object, 'something else entirely\n'); // Disk damage, or a crafted store.
    const result = await journal.revert('c1');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/a\.txt.*does not match/);
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('the change\n');
    expect(await readdir(folder)).toEqual(['a.txt']); // No temp left behind.
  });

  it('does not copy a file from outside through an object that is a symlink', async () => {
    const object = await changed('c1', 'private key\n', 'the change\n');
    await unlink(object);
    await symlink(join(outside, 'secret'), object);
    // The link's target holds exactly the bytes of the hash, yet it is not the store's own file.
    const result = await journal.revert('c1');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/a\.txt.*not a file of the object store/);
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('the change\n');
  });

  it('does not wait forever on an object that is a FIFO', async () => {
    const object = await changed('c1', 'the original\n', 'the change\n');
    await unlink(object);
    execFileSync('mkfifo', [object]);
    const result = await journal.revert('c1');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/a\.txt.*not a file of the object store/);
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('the change\n');
  });

  it("never shows the content behind a crafted object in a command's diff", async () => {
    const before = journal.objects.putBytes(Buffer.from('old line\n'));
    const after = journal.objects.putBytes(Buffer.from('new line\n'));
    await unlink(journal.objects.pathOf(before));
    await symlink(join(outside, 'secret'), journal.objects.pathOf(before));
    const [report] = describeCommandFiles(
      folder,
      [
        {
          path: join(folder, 'a.txt'),
          before: { kind: 'file', sha256: before, size: 9, mode: 0o644 },
          after: { kind: 'file', sha256: after, size: 9, mode: 0o644 },
        },
      ],
      journal.objects,
    );
    expect(report?.diff).not.toContain('private key');
    expect(report?.diff).toContain('a.txt: no diff: the kept copy could not be read');
  });
});

describe('journal lines naming paths outside the project', () => {
  const sha = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'; // Empty content.
  it.each([
    ['an absolute path outside', () => join(outside, 'secret')],
    ['a path walking out', () => `${folder}/../outside/secret`],
  ])('%s: revert and reconcile leave it alone', async (_name, target) => {
    journal.close();
    const path = target();
    const lines = [
      { type: 'before', seq: 1, callId: 'x1', path, image: { kind: 'absent' } },
      {
        type: 'after',
        callId: 'x1',
        path,
        image: { kind: 'file', sha256: sha, size: 0, mode: 420 },
      },
      {
        type: 'write-intent',
        seq: 2,
        callId: 'x2',
        path,
        before: { kind: 'file', sha256: sha, size: 0, mode: 420 },
        planned: { sha256: sha, size: 0 },
        temp: path,
      },
    ];
    await appendFile(
      join(journalDir, 'journal.jsonl'),
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    journal = await openFileJournal({ dir: journalDir, folder });
    await journal.reconcile();
    const result = await journal.revert('x1');
    expect(result.ok).toBe(false);
    expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('private key\n');
    expect(await readdir(outside)).toEqual(['secret']);
  });
});
