import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileJournal } from './file-journal';
import { parseJournalLine } from './journal-record';

const digest = 'a'.repeat(64);

describe('parseJournalLine', () => {
  it.each([
    ['null', 'not a journal record'],
    ['[null]', 'not a journal record'],
    ['{}', 'type: '],
    ['{"type":"before"}', 'seq: '],
    [
      '{"type":"after","callId":"c","path":"relative.txt","image":{"kind":"absent"}}',
      'path: not an absolute path',
    ],
    [
      `{"type":"before","seq":1,"callId":"c","path":"/p","image":{"kind":"file","sha256":"../../../etc/passwd","size":1,"mode":420}}`,
      'image.sha256: not a SHA-256 digest',
    ],
    ['{"type":"reverted"}', 'callId: '],
    ['{"type":"before","seq":1,"callId":"c"', 'not JSON'],
  ])('refuses %s', (text, reason) => {
    const parsed = parseJournalLine(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.reason.startsWith(reason) || parsed.reason.includes(reason)).toBe(true);
  });

  it.each([
    `{"type":"before","seq":3,"callId":"s/c","path":"/p/a","image":{"kind":"file","sha256":"${digest}","size":4,"mode":420}}`,
    '{"type":"before","seq":1,"callId":"c","path":"/p/new","image":{"kind":"absent"},"keepDir":"/p"}',
    '{"type":"after","callId":"c","path":"/p/l","image":{"kind":"symlink","target":"../x"}}',
    '{"type":"after","callId":"c","path":"/p/big","image":{"kind":"too-large","size":99999999}}',
    '{"type":"reverted","callId":"c"}',
  ])('accepts %s', (text) => {
    expect(parseJournalLine(text)).toEqual({ ok: true, line: JSON.parse(text) });
  });
});

describe('a journal with damaged lines', () => {
  let base = '';
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('loads the good lines, reports the bad ones, and still reverts', async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-journal-bad-')));
    const file = join(base, 'a.txt');
    const journalDir = join(base, 'journal');
    await writeFile(file, 'before\n');
    const first = await openFileJournal({ dir: journalDir, folder: base });
    await first.recordBefore(file, 'c1');
    await writeFile(file, 'after\n');
    await first.recordAfter(file, 'c1');
    const log = join(journalDir, 'journal.jsonl');
    const good = await readFile(log, 'utf8');
    await writeFile(
      log,
      `null\n[null]\n{"type":"before"}\n${good}{"type":"reverted","callId":7}\n`,
    );

    const journal = await openFileJournal({ dir: journalDir, folder: base });
    expect(journal.loadProblems).toHaveLength(4);
    expect(journal.loadProblems[0]).toBe(`${log} line 1: not a journal record`);
    expect(journal.loadProblems.map((p) => p.split(' line ')[1]?.split(':')[0])).toEqual([
      '1',
      '2',
      '3',
      '6',
    ]);
    expect(journal.hasChanges('c1')).toBe(true);
    expect((await journal.revert('c1')).ok).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('before\n');
  });
});
