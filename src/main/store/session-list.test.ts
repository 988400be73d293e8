// The sidebar's list of sessions, read from real transcripts in a temp data folder: the title
// from the first task (or the person's), how the last run ended, also for a session far larger
// than the bytes read from its head and tail.
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent, RunFinishReason } from '../../shared/events';
import { joinOutput } from './session-trace';
import {
  deleteStoredSession,
  listStoredSessions,
  renameStoredSession,
  titleFromTask,
} from './session-list';
import { transcriptPath, TranscriptWriter } from './transcript';

let dataDir: string;
const folder = '/projects/shop';

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tandem-sessions-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function write(
  id: string,
  runs: readonly { task: string; ended: RunFinishReason | null; output?: number }[],
  mtime: number,
): Promise<void> {
  const file = transcriptPath(dataDir, folder, id);
  const writer = new TranscriptWriter(file);
  writer.appendMeta({ type: 'session-created', sessionId: id, folder }, mtime - 1000);
  runs.forEach((run, i) => {
    const runId = `${id}-r${i}`;
    writer.appendEvent({ type: 'run-started', runId, sessionId: id, task: run.task, at: 1 });
    // Much more output than the 64 KB read from each end.
    for (let k = 0; k < (run.output ?? 0); k++) {
      writer.appendEvent({ type: 'tool-output', runId, callId: 'c', chunk: 'x'.repeat(1000) });
    }
    if (run.ended) writer.appendEvent({ type: 'run-finished', runId, reason: run.ended });
  });
  writer.close();
  await utimes(file, mtime / 1000, mtime / 1000);
}

describe('listStoredSessions', () => {
  it('lists newest first with title, times and how the last run ended', async () => {
    await write('s-done', [{ task: 'Fix the tests\nand more', ended: 'done' }], 3_000_000);
    await write(
      's-stopped',
      [
        { task: 'first', ended: 'done' },
        { task: 'second', ended: 'stopped', output: 200 },
      ],
      2_000_000,
    );
    await write('s-crashed', [{ task: 'long one', ended: null, output: 300 }], 4_000_000);
    await write('s-failed', [{ task: 'x'.repeat(120), ended: 'error' }], 1_000_000);
    await write('s-empty', [], 500_000);

    const sessions = await listStoredSessions(dataDir, folder);
    expect(sessions.map((s) => [s.id, s.title, s.status, s.updatedAt, s.createdAt])).toEqual([
      ['s-crashed', 'long one', 'interrupted', 4_000_000, 3_999_000],
      ['s-done', 'Fix the tests', 'done', 3_000_000, 2_999_000],
      ['s-stopped', 'first', 'stopped', 2_000_000, 1_999_000],
      ['s-failed', `${'x'.repeat(79)}…`, 'failed', 1_000_000, 999_000],
      ['s-empty', 'New session', 'new', 500_000, 499_000],
    ]);
  });

  it('keeps a rename beside the transcripts, and a delete removes both', async () => {
    await write('s1', [{ task: 'task one', ended: 'done' }], 1_000_000);
    await write('s2', [{ task: 'task two', ended: 'done' }], 2_000_000);
    await renameStoredSession(dataDir, folder, 's1', 'Release notes');
    expect((await listStoredSessions(dataDir, folder)).map((s) => s.title)).toEqual([
      'task two',
      'Release notes',
    ]);
    await deleteStoredSession(dataDir, folder, 's1');
    expect((await listStoredSessions(dataDir, folder)).map((s) => s.id)).toEqual(['s2']);
    await expect(renameStoredSession(dataDir, folder, 's1', 'x')).rejects.toThrow(
      'That session does not exist (any more).',
    );
    await expect(deleteStoredSession(dataDir, folder, '../s2')).rejects.toThrow(
      '"../s2" is not a session id.',
    );
  });

  it('is empty for a folder without sessions', async () => {
    expect(await listStoredSessions(dataDir, '/never/opened')).toEqual([]);
  });
});

describe('titleFromTask', () => {
  it.each([
    ['  Add a README  ', 'Add a README'],
    ['\n\nsecond line first', 'second line first'],
    ['', 'New session'],
  ])('%j → %j', (task, title) => {
    expect(titleFromTask(task)).toBe(title);
  });
});

describe('joinOutput', () => {
  it("joins one call's output chunks into one event, in order, keeping everything else", () => {
    const out = (callId: string, chunk: string): RunEvent => ({
      type: 'tool-output',
      runId: 'r',
      callId,
      chunk,
    });
    const result: RunEvent = {
      type: 'tool-result',
      runId: 'r',
      callId: 'a',
      ok: true,
      output: 'ab',
      durationMs: 1,
    };
    expect(
      joinOutput([out('a', 'a1'), out('b', 'b1'), out('a', 'a2'), result, out('a', 'late')]),
    ).toEqual([out('a', 'a1a2'), out('b', 'b1'), result, out('a', 'late')]);
  });
});
