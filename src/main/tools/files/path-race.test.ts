// Issue 9 row 11: another local process swaps a folder with a symlink out of the project
// (renameat2 RENAME_EXCHANGE) while the file tools work. The racer runs for a few seconds as a
// child process; every read, write and edit made meanwhile must stay inside the project.
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canRace, makeRaceFolders, runRacer } from '../../../test-support/path-swap-race';
import { openFileJournal, type FileJournal } from '../../workspace/file-journal';
import { ToolError, type ToolContext, type ToolReturn } from '../tool';
import { createFileTools } from './index';

const RACE_SECONDS = 2;
const MAX_SECONDS = 15;
/** Calls made under swaps per test; an idle machine makes 1,000-7,000 in RACE_SECONDS. */
const MIN_ROUNDS = 300;
const INSIDE = 'inside: harmless\n';
const OUTSIDE = 'OUTSIDE SECRET\n';

let base = '';
let folder = '';
let outside = '';
let journal: FileJournal;
let calls = 0;

beforeEach(async () => {
  ({ base, folder, outside } = await makeRaceFolders('race'));
  await writeFile(join(folder, 'race', 'secret.txt'), INSIDE);
  await writeFile(join(outside, 'secret.txt'), OUTSIDE);
  await writeFile(join(outside, 'outside-only.txt'), OUTSIDE);
  journal = await openFileJournal({ dir: join(base, 'data', 'journal'), folder });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function context(callId = `call_${++calls}`): ToolContext {
  return {
    folder,
    sessionId: 's1',
    callId,
    signal: new AbortController().signal,
    onOutput: () => undefined,
    services: { journal },
  };
}

/** `refused`: a ToolError the model reads; `crashed`: any other error (the registry reports it too). */
type Outcome =
  | { kind: 'ok'; output: string }
  | { kind: 'refused'; message: string }
  | { kind: 'crashed'; message: string };

async function call(
  name: string,
  args: Record<string, unknown>,
  callId?: string,
): Promise<Outcome> {
  const tool = createFileTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  try {
    const result: string | ToolReturn = await tool.execute(args as never, context(callId));
    return { kind: 'ok', output: typeof result === 'string' ? result : result.output };
  } catch (error) {
    const message = (error as Error).message;
    return error instanceof ToolError ? { kind: 'refused', message } : { kind: 'crashed', message };
  }
}

/**
 * Calls `work` over and over while the racer runs: at least RACE_SECONDS, and on (one second at
 * a time, up to MAX_SECONDS) until MIN_ROUNDS calls were made, so a busy machine still tests
 * enough calls. The outcome asserted (no leak) does not depend on timing.
 */
async function duringSwaps(
  work: (i: number) => Promise<void>,
): Promise<{ swaps: number; rounds: number }> {
  let rounds = 0;
  let swaps = 0;
  for (let second = 0; second < MAX_SECONDS; second += 1) {
    if (second >= RACE_SECONDS && rounds >= MIN_ROUNDS) break;
    let finished = false;
    const racer = runRacer(folder, 1).finally(() => (finished = true));
    while (!finished) await work(rounds++);
    swaps += await racer;
  }
  return { swaps, rounds };
}

describe.skipIf(!canRace)('file tools while a folder is swapped with a symlink out', () => {
  it('read_file never returns the outside file', async () => {
    let leaks = 0;
    const failed = { refused: 0, crashed: 0 };
    const { swaps, rounds } = await duringSwaps(async () => {
      const outcome = await call('read_file', { path: 'race/secret.txt' });
      if (outcome.kind !== 'ok') failed[outcome.kind] += 1;
      else if (outcome.output.includes('OUTSIDE')) leaks += 1;
      else expect(outcome.output).toContain('inside: harmless');
    });
    console.info(
      `read_file race: ${rounds} reads, ${leaks} leaked, ${failed.refused} refused, ${failed.crashed} crashed, ${swaps} swaps`,
    );
    expect(swaps).toBeGreaterThan(1000);
    expect(rounds).toBeGreaterThan(MIN_ROUNDS);
    expect({ leaks, crashed: failed.crashed }).toEqual({ leaks: 0, crashed: 0 });
  });

  it('read_file of a file too big to load (streamed in the scan worker) never returns the outside one', async () => {
    // Over the 10 MB read whole: the window is read by the worker, which opens the file itself.
    const big = (line: string): string =>
      line.repeat(Math.ceil((10 * 1024 * 1024 + 1) / line.length));
    await writeFile(join(folder, 'race', 'big.txt'), big(INSIDE));
    await writeFile(join(outside, 'big.txt'), big(OUTSIDE));
    let leaks = 0;
    const failed = { refused: 0, crashed: 0 };
    const { rounds } = await duringSwaps(async () => {
      const outcome = await call('read_file', { path: 'race/big.txt', limit: 2 });
      if (outcome.kind !== 'ok') failed[outcome.kind] += 1;
      else if (outcome.output.includes('OUTSIDE')) leaks += 1;
      else expect(outcome.output).toContain('inside: harmless');
    });
    console.info(
      `big read_file race: ${rounds} reads, ${leaks} leaked, ${failed.refused} refused, ${failed.crashed} crashed`,
    );
    expect(rounds).toBeGreaterThan(MIN_ROUNDS);
    expect({ leaks, crashed: failed.crashed }).toEqual({ leaks: 0, crashed: 0 });
  });

  it('write_file and edit_file never write outside and never bring outside content in', async () => {
    let written = 0;
    const crashes: string[] = [];
    const { swaps, rounds } = await duringSwaps(async (i) => {
      const outcome =
        i % 2 === 0
          ? await call('write_file', { path: `race/new-${i}.txt`, content: `written ${i}\n` })
          : await call('edit_file', {
              path: 'race/secret.txt',
              old_text: 'SECRET',
              new_text: 'PWNED',
            });
      if (outcome.kind === 'ok') written += 1;
      if (outcome.kind === 'crashed') crashes.push(outcome.message);
    });
    console.info(
      `write race: ${rounds} writes/edits, ${written} done, ${crashes.length} crashed, ${swaps} swaps`,
    );
    expect(swaps).toBeGreaterThan(1000);
    expect(rounds).toBeGreaterThan(MIN_ROUNDS);
    expect(crashes.slice(0, 3)).toEqual([]);
    expect((await readdir(outside)).sort()).toEqual(['outside-only.txt', 'secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
    for (const name of await readdir(join(folder, 'race'))) {
      expect(await readFile(join(folder, 'race', name), 'utf8')).not.toMatch(/OUTSIDE|PWNED/);
    }
  });

  it('list_dir, find_files and search never show what is outside', async () => {
    let leaks = 0;
    let crashed = 0;
    // find_files and search walk in the scan worker: from `race` itself, and from the project,
    // where `race` is a folder the walk meets on the way.
    const calls: [string, Record<string, unknown>][] = [
      ['list_dir', { path: 'race' }],
      ['find_files', { pattern: '*.txt', path: 'race' }],
      ['search', { pattern: 'SECRET', path: 'race' }],
      ['find_files', { pattern: '*.txt' }],
      ['search', { pattern: 'SECRET' }],
    ];
    const { rounds } = await duringSwaps(async (i) => {
      const [name, args] = calls[i % calls.length] as [string, Record<string, unknown>];
      const outcome = await call(name, args);
      if (outcome.kind === 'crashed') crashed += 1;
      if (outcome.kind === 'ok' && /outside-only|SECRET\n|secret.txt:1/.test(outcome.output)) {
        leaks += 1;
      }
    });
    console.info(`listing race: ${rounds} calls, ${leaks} leaked, ${crashed} crashed`);
    expect(rounds).toBeGreaterThan(MIN_ROUNDS);
    expect({ leaks, crashed }).toEqual({ leaks: 0, crashed: 0 });
  });

  it('reverting an edit never restores the old content outside', async () => {
    let reverted = 0;
    let last: string | undefined;
    const { rounds } = await duringSwaps(async (i) => {
      if (last === undefined) {
        const callId = `edit_${i}`;
        const outcome = await call(
          'write_file',
          { path: 'race/secret.txt', content: `edited ${i}\n` },
          callId,
        );
        if (outcome.kind === 'ok') last = callId;
        return;
      }
      // The revert streams the kept copy back in a temp file and renames it: through the swap
      // it must refuse, never put the copy (or its temp) in the outside folder.
      const result = await journal.revert(last).catch((error: Error) => ({ ok: false, error }));
      if (result.ok) reverted += 1;
      if (result.ok || !journal.hasChanges(last)) last = undefined;
    });
    console.info(`revert edit race: ${rounds} rounds, ${reverted} reverted`);
    expect(rounds).toBeGreaterThan(MIN_ROUNDS);
    expect((await readdir(outside)).sort()).toEqual(['outside-only.txt', 'secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
    expect(await readFile(join(folder, 'race', 'secret.txt'), 'utf8')).toMatch(
      /^(inside: harmless|edited \d+)\n$/,
    );
  });

  it('reverting a created file never deletes or writes outside', async () => {
    await writeFile(join(outside, 'victim.txt'), OUTSIDE);
    let reverted = 0;
    let last: string | undefined;
    const { rounds } = await duringSwaps(async (i) => {
      if (last === undefined) {
        const callId = `create_${i}`;
        const outcome = await call(
          'write_file',
          { path: 'race/victim.txt', content: 'mine\n' },
          callId,
        );
        if (outcome.kind === 'ok') last = callId;
        return;
      }
      const result = await journal.revert(last).catch((error: Error) => ({ ok: false, error }));
      if (result.ok) reverted += 1;
      if (!result.ok && !journal.hasChanges(last)) last = undefined;
      if (result.ok) last = undefined;
    });
    console.info(`revert race: ${rounds} rounds, ${reverted} reverted`);
    expect(rounds).toBeGreaterThan(MIN_ROUNDS);
    expect((await readdir(outside)).sort()).toEqual([
      'outside-only.txt',
      'secret.txt',
      'victim.txt',
    ]);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe(OUTSIDE);
  });
});
