// The owner lock of a project's data folder (issue 10 item 7), with a real second process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireProjectLock } from './project-lock';

let base = '';
let worker = '';
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'tandem-lock-'));
  worker = join(base, 'lock-worker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'lock-worker.test-support.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: worker,
    logLevel: 'error',
  });
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface WorkerLine {
  kind: 'owner' | 'held';
  holder?: { pid: number; host: string; since: number };
  message?: string;
}

/** Starts the second process and waits for what it got. */
function otherProcess(projectDir: string, form: 'socket' | 'file', go?: string) {
  const child = spawn(process.execPath, [worker, projectDir, form, ...(go ? [go] : [])]);
  children.push(child);
  const line = new Promise<WorkerLine>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))) as WorkerLine);
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, line, exited };
}

describe.each<'socket' | 'file'>(['socket', 'file'])('project lock (%s)', (form) => {
  it('lets one process own the folder and tells the other who holds it', async () => {
    const dir = await mkdtemp(join(base, 'p-'));
    const mine = await acquireProjectLock(dir, { form });
    expect(mine.kind).toBe('owner');
    const other = otherProcess(dir, form);
    const got = await other.line;
    expect(got).toMatchObject({ kind: 'held', holder: { pid: process.pid, host: hostname() } });
    expect(got.message).toMatch(
      new RegExp(
        `open in another Tandem process \\(pid ${process.pid} on .*, since \\d{4}-.*\\)\\. This one is read-only`,
      ),
    );
    if (mine.kind === 'owner') await mine.release();
    // Released: the next opener owns it.
    const after = await acquireProjectLock(dir, { form });
    expect(after.kind).toBe('owner');
    if (after.kind === 'owner') await after.release();
  });

  it('is free again at once when its owner is killed with SIGKILL', async () => {
    const dir = await mkdtemp(join(base, 'p-'));
    const other = otherProcess(dir, form);
    expect(await other.line).toEqual({ kind: 'owner' });
    const held = await acquireProjectLock(dir, { form });
    expect(held).toMatchObject({ kind: 'held', holder: { pid: other.child.pid } });
    other.child.kill('SIGKILL');
    await other.exited;
    const mine = await acquireProjectLock(dir, { form });
    expect(mine.kind).toBe('owner');
    if (mine.kind === 'owner') await mine.release();
  });

  it('waits for the owner when asked to, and takes the lock when it closes', async () => {
    const dir = await mkdtemp(join(base, 'p-'));
    const other = otherProcess(dir, form);
    expect(await other.line).toEqual({ kind: 'owner' });
    const waiting = acquireProjectLock(dir, { form, waitMs: 30_000 });
    other.child.stdin.end();
    const mine = await waiting;
    expect(mine.kind).toBe('owner');
    if (mine.kind === 'owner') await mine.release();
  });
});

describe('project lock file', () => {
  it('breaks a lock whose owner is gone, and keeps one whose owner runs', async () => {
    const dir = await mkdtemp(join(base, 'p-'));
    const gone = { pid: 2 ** 22 + 12345, host: hostname(), since: 1 };
    await writeFile(join(dir, 'owner.lock'), JSON.stringify(gone));
    const mine = await acquireProjectLock(dir, { form: 'file' });
    expect(mine.kind).toBe('owner');
    if (mine.kind === 'owner') await mine.release();
    const running = { pid: process.ppid, host: hostname(), since: 1 };
    await writeFile(join(dir, 'owner.lock.7'), JSON.stringify(running));
    expect(await acquireProjectLock(dir, { form: 'file' })).toMatchObject({
      kind: 'held',
      holder: running,
    });
  });

  it('gives a stale lock to exactly one of several processes breaking it at once', async () => {
    // Each deleted the stale file and made its own; a later breaker deleted an earlier one's
    // fresh lock, and two to four processes owned the project (13 of 30 rounds of six).
    for (let round = 0; round < 8; round += 1) {
      const dir = await mkdtemp(join(base, 'race-'));
      const gone = { pid: 2 ** 22 + 12345, host: hostname(), since: 1 };
      await writeFile(join(dir, 'owner.lock'), JSON.stringify(gone));
      const go = join(dir, 'go');
      const others = Array.from({ length: 6 }, () => otherProcess(dir, 'file', go));
      await new Promise((resolve) => setTimeout(resolve, 300)); // All started and waiting.
      await writeFile(go, '');
      const got = await Promise.all(others.map((o) => o.line));
      expect(got.filter((line) => line.kind === 'owner')).toHaveLength(1);
      for (const o of others) o.child.kill('SIGKILL');
      await Promise.all(others.map((o) => o.exited));
      // The owner is gone: the next opener takes over.
      const mine = await acquireProjectLock(dir, { form: 'file' });
      expect(mine.kind).toBe('owner');
      if (mine.kind === 'owner') await mine.release();
    }
  });
});
