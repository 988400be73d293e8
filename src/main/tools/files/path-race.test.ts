// Issue 9 row 11: another local process swaps a folder with a symlink out of the project
// (renameat2 RENAME_EXCHANGE) while the file tools work. The racer runs for a few seconds as a
// child process; every read, write and edit made meanwhile must stay inside the project.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal, type FileJournal } from '../../workspace/file-journal';
import { ToolError, type ToolContext, type ToolReturn } from '../tool';
import { createFileTools } from './index';

const RACER = resolve(__dirname, '../../../test-support/path-swap-racer.py');
const RACE_SECONDS = 3;
const INSIDE = 'inside: harmless\n';
const OUTSIDE = 'OUTSIDE SECRET\n';
const canRace =
  process.platform === 'linux' && process.arch === 'x64' && existsSync('/proc/self/fd');

let base = '';
let folder = '';
let outside = '';
let journal: FileJournal;
let calls = 0;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-race-')));
  folder = join(base, 'proj');
  outside = join(base, 'outside');
  await mkdir(join(folder, 'race'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(folder, 'race', 'secret.txt'), INSIDE);
  await writeFile(join(outside, 'secret.txt'), OUTSIDE);
  await symlink(outside, join(folder, 'race_swap'));
  journal = await openFileJournal(join(base, 'data', 'journal'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function context(): ToolContext {
  return {
    folder,
    sessionId: 's1',
    callId: `call_${++calls}`,
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

async function call(name: string, args: Record<string, unknown>): Promise<Outcome> {
  const tool = createFileTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  try {
    const result: string | ToolReturn = await tool.execute(args as never, context());
    return { kind: 'ok', output: typeof result === 'string' ? result : result.output };
  } catch (error) {
    const message = (error as Error).message;
    return error instanceof ToolError ? { kind: 'refused', message } : { kind: 'crashed', message };
  }
}

/** Runs the racer for RACE_SECONDS; resolves with its swap count when it has put `race` back. */
function startRacer(): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn('python3', [RACER, folder, String(RACE_SECONDS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const swaps = /swaps (\d+)/.exec(out);
      if (code !== 0 || !swaps) fail(new Error(`racer failed (${code}): ${out}`));
      else done(Number(swaps[1]));
    });
  });
}

/** Calls `work` over and over until the racer ends. */
async function duringSwaps(
  work: (i: number) => Promise<void>,
): Promise<{ swaps: number; rounds: number }> {
  let finished = false;
  const racer = startRacer().finally(() => (finished = true));
  let rounds = 0;
  while (!finished) await work(rounds++);
  return { swaps: await racer, rounds };
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
    expect(rounds).toBeGreaterThan(300);
    expect({ leaks }).toEqual({ leaks: 0 });
  });

  it('write_file and edit_file never write outside and never bring outside content in', async () => {
    let written = 0;
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
    });
    console.info(`write race: ${rounds} writes/edits, ${written} done, ${swaps} swaps`);
    expect(swaps).toBeGreaterThan(1000);
    expect(rounds).toBeGreaterThan(300);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
    for (const name of await readdir(join(folder, 'race'))) {
      expect(await readFile(join(folder, 'race', name), 'utf8')).not.toMatch(/OUTSIDE|PWNED/);
    }
  });
});
