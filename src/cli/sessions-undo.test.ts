// `tandem sessions` and `tandem undo` on real runs: files written by tools and by a command in
// the sandbox, listed, then put back from the journal, call by call and run by run.
import { access, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedTurn,
} from '../test-support/scripted-openai-server';
import { projectDataDir } from '../main/store/data-dir';
import { acquireProjectLock } from '../main/workspace/project-lock';
import type { CliIo } from './cli-io';
import { main } from './index';

let folder: string;
let dataDir: string;
let server: ScriptedServer | undefined;

beforeEach(async () => {
  folder = await makeTempDir('cli-undo-proj');
  dataDir = await makeTempDir('cli-undo-data');
  await writeFile(join(folder, 'a.txt'), 'old a\n');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(folder, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

function io(): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
      stdin: new PassThrough(),
      stdinIsTTY: false,
      env: { OPENAI_API_KEY: 'k', TANDEM_USER_DATA_DIR: join(dataDir, 'no-window') },
      cwd: folder,
    },
    out: () => out,
    err: () => err,
  };
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const run = io();
  const code = await main([...argv, '--data-dir', dataDir], run.io);
  return { code, out: run.out(), err: run.err() };
}

async function runTask(turns: ScriptedTurn[], task: string, session?: string): Promise<void> {
  await server?.close();
  server = await startScriptedOpenAIServer({ turns });
  const args = ['run', '--base-url', server.baseUrl, '--model', 'm', '--mode', 'autonomous'];
  const result = await cli(...args, ...(session ? ['--session', session] : []), task);
  expect(result.err).not.toContain('tandem run:');
  expect(result.code).toBe(0);
}

const exists = (name: string): Promise<boolean> =>
  access(join(folder, name)).then(
    () => true,
    () => false,
  );

interface Listed {
  id: string;
  status: string;
  title: string;
  runs: { runId: string; task: string; reason: string }[];
}

async function sessions(): Promise<Listed[]> {
  const listed = await cli('sessions', '--json');
  expect(listed.code).toBe(0);
  return listed.out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Listed);
}

describe('tandem sessions and tandem undo', () => {
  it('lists sessions, then undoes one call and then the rest of its run', async () => {
    expect((await cli('sessions')).out).toBe(`No sessions for ${folder} in ${dataDir}.\n`);
    await runTask(
      [
        {
          toolCalls: [
            { id: 'call_1', name: 'write_file', arguments: { path: 'a.txt', content: 'new a\n' } },
            { id: 'call_2', name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } },
          ],
        },
        {
          toolCalls: [
            { id: 'call_3', name: 'shell', arguments: { command: 'printf made > c.txt' } },
          ],
        },
        { text: 'changed three files' },
      ],
      'change the files',
    );
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('new a\n');
    expect(await readFile(join(folder, 'c.txt'), 'utf8')).toBe('made');

    const [session, ...others] = await sessions();
    expect(others).toEqual([]);
    expect(session).toMatchObject({ status: 'done', title: 'change the files' });
    const runId = session!.runs[0]!.runId;
    const text = await cli('sessions');
    expect(text.out).toMatch(
      new RegExp(
        `^ID +STARTED +STATUS +TITLE\\n${session!.id} +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +done +change the files\\n$`,
      ),
    );

    const listed = await cli('undo', '--session', session!.id);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`run ${runId}  change the files`);
    expect(listed.out).toContain('  call_1  write_file  a.txt\n');
    expect(listed.out).toContain('  call_2  write_file  b.txt\n');
    expect(listed.out).toContain('  call_3  shell  c.txt\n');

    const one = await cli('undo', '--session', session!.id, '--call', 'call_1');
    expect(one).toMatchObject({ code: 0, out: '✓ Reverted: restored a.txt\n' });
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('old a\n');
    const again = await cli('undo', '--session', session!.id, '--call', 'call_1');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^✗ Call .*call_1 was already reverted\.\n$/);

    const run = await cli('undo', '--session', session!.id, '--run', runId);
    expect(run).toMatchObject({ code: 0, out: '✓ Reverted 2 call(s).\n' });
    expect(await exists('b.txt')).toBe(false);
    expect(await exists('c.txt')).toBe(false);
    expect((await cli('undo', '--session', session!.id)).out).toBe(
      `Nothing to undo in session ${session!.id}.\n`,
    );
  });

  it('refuses to overwrite a file changed since the call, and says which', async () => {
    await runTask(
      [
        {
          toolCalls: [
            { id: 'call_1', name: 'write_file', arguments: { path: 'a.txt', content: 'agent\n' } },
          ],
        },
        { text: 'ok' },
      ],
      'edit a',
    );
    await writeFile(join(folder, 'a.txt'), 'mine\n');
    const [session] = await sessions();
    const result = await cli('undo', '--session', session!.id, '--call', 'call_1', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toMatchObject({
      ok: false,
      message: expect.stringContaining('a.txt'),
    });
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('mine\n');
  });

  it('changes nothing while another Tandem process owns the project, and says who', async () => {
    await runTask(
      [
        {
          toolCalls: [
            { id: 'call_1', name: 'write_file', arguments: { path: 'a.txt', content: 'agent\n' } },
          ],
        },
        { text: 'ok' },
      ],
      'edit a',
    );
    const [session] = await sessions();
    // As the window holds it while the project is open (the lock is per project data folder).
    const lock = await acquireProjectLock(projectDataDir(dataDir, await realpath(folder)));
    expect(lock.kind).toBe('owner');
    try {
      const held = await cli('undo', '--session', session!.id, '--call', 'call_1');
      expect(held.code).toBe(1);
      expect(held.err).toMatch(/^✗ This project is open in .*This one is read-only/);
      expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('agent\n');
    } finally {
      if (lock.kind === 'owner') await lock.release();
    }
    // Once it is closed, the same undo goes through.
    const freed = await cli('undo', '--session', session!.id, '--call', 'call_1');
    expect(freed).toMatchObject({ code: 0, out: '✓ Reverted: restored a.txt\n' });
  });

  it('keeps runs of a continued session apart', async () => {
    await runTask(
      [
        {
          toolCalls: [
            { id: 'call_1', name: 'write_file', arguments: { path: 'one.txt', content: '1' } },
          ],
        },
        { text: 'first' },
      ],
      'first task',
    );
    const [first] = await sessions();
    await runTask(
      [
        {
          toolCalls: [
            { id: 'call_1', name: 'write_file', arguments: { path: 'two.txt', content: '2' } },
          ],
        },
        { text: 'second' },
      ],
      'second task',
      first!.id,
    );
    const [session] = await sessions();
    expect(session!.runs.map((r) => r.task)).toEqual(['first task', 'second task']);
    // Providers repeat call ids across runs: undo by run picks the right one.
    const second = session!.runs[1]!.runId;
    expect((await cli('undo', '--session', session!.id, '--run', second)).code).toBe(0);
    expect(await exists('two.txt')).toBe(false);
    expect(await exists('one.txt')).toBe(true);
  });

  it.each([
    { argv: ['undo'], code: 2, err: /^tandem undo: --session is required\n/ },
    { argv: ['undo', '--session', 'x', '--call', 'a', '--run', 'b'], code: 2, err: /not both/ },
    { argv: ['undo', '--session', '../../etc'], code: 3, err: /"..\/..\/etc" is not a session id/ },
    { argv: ['undo', '--session', 'nope'], code: 3, err: /no session nope for / },
    { argv: ['sessions', '--folder', '/nonexistent/x'], code: 3, err: /folder does not exist/ },
    { argv: ['sessions', '--folder', '/etc/hosts'], code: 3, err: /not a folder: .* is a file/ },
    { argv: ['sessions', 'extra'], code: 2, err: /Unexpected argument 'extra'/ },
  ])('$argv → exit $code', async ({ argv, code, err }) => {
    const result = await cli(...argv);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(err);
  });
});
