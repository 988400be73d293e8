// Kill -9 at random points (issue 10 item 6): a real child process changes a project through the
// journal, the change tracker and undo until it is killed with SIGKILL; then the project is
// opened again as Tandem would. Every trial checks that no file is torn, no temp file and no lock
// is left, no process of the child remains, and that every completed write and command can be
// reverted: undoing all calls, newest first, gives back the project exactly as it started.
// Seeded (TANDEM_CRASH_SEED, TANDEM_CRASH_TRIALS); the child is bundled once so a trial starts fast.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectDataDir } from '../store/data-dir';
import { isWhole, seeded, selfChecked } from './crash-fixture.test-support';
import { openProjectJournal } from './project-journal';

const TRIALS = Number(process.env.TANDEM_CRASH_TRIALS ?? 50);
const SEED = Number(process.env.TANDEM_CRASH_SEED ?? 20261130);

let base = '';
let folder = '';
let dataDir = '';
let pool = '';
let worker = '';

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-crash-')));
  folder = join(base, 'proj');
  dataDir = join(base, 'data');
  pool = join(base, 'pool');
  worker = join(base, 'worker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'crash-worker.test-support.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: worker,
    logLevel: 'error',
  });
  await mkdir(join(folder, 'dir', 'deep'), { recursive: true });
  for (const [name, size] of [
    ['a.txt', 10],
    ['b.txt', 50_000],
    ['dir/c.txt', 2_000],
    ['dir/deep/d.txt', 300],
    ['e.txt', 9 * 1024 * 1024], // Above the big-file size: streamed, never loaded whole.
  ] as const) {
    await writeFile(join(folder, name), selfChecked(`${name} `.repeat(size / 4)));
  }
  await chmod(join(folder, 'dir', 'c.txt'), 0o640);
  await symlink('a.txt', join(folder, 'link'));
  await mkdir(pool);
  for (let i = 0; i < 8; i++) {
    await writeFile(join(pool, `p${i}`), selfChecked(`pool ${i} `.repeat(20 ** (i % 4))));
  }
  await writeFile(join(pool, 'big'), selfChecked('big '.repeat(2_500_000)));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Files and symlinks under `dir` (not .git), as content hash and mode. */
function stateOf(dir: string): Map<string, string> {
  const state = new Map<string, string>();
  const visit = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const child = rel ? `${rel}/${name}` : name;
      const stats = lstatSync(join(dir, child));
      if (stats.isDirectory()) visit(child);
      else if (stats.isSymbolicLink()) state.set(child, `link ${readlinkSync(join(dir, child))}`);
      else {
        const hash = createHash('sha256')
          .update(readFileSync(join(dir, child)))
          .digest('hex');
        state.set(child, `${hash} ${(stats.mode & 0o777).toString(8)}`);
      }
    }
  };
  visit('');
  return state;
}

function filesUnder(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs the worker and kills its whole process group at a random moment. */
async function runAndKill(seed: number, random: () => number): Promise<{ steps: number }> {
  const child = spawn(process.execPath, [worker, folder, dataDir, pool, String(seed)], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve) => {
    const check = (): void => {
      if (out.includes('ready\n')) resolve();
    };
    child.stdout.on('data', check);
    void exited.then(() => resolve());
  });
  // Mostly while it works; sometimes while it opens (reconciling the last crash).
  if (random() < 0.15) await sleep(random() * 400);
  else {
    await ready;
    await sleep(random() * 300);
  }
  const pid = child.pid as number;
  if (child.exitCode !== null) throw new Error(`the worker ended by itself: ${err}`);
  process.kill(-pid, 'SIGKILL');
  await exited;
  for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(20);
  if (groupAlive(pid)) {
    console.log(
      execFileSync('ps', ['-eo', 'pid,ppid,pgid,stat,etime,args'])
        .toString()
        .split('\n')
        .filter((l) => l.includes(` ${pid} `))
        .join('\n'),
    );
  }
  expect(groupAlive(pid), 'a process of the killed worker is still running').toBe(false);
  return { steps: (out.match(/^step /gm) ?? []).length };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9 at random points', () => {
  it(`leaves every file whole and every change revertable (${TRIALS} trials)`, async () => {
    const initial = stateOf(folder);
    const random = seeded(SEED);
    let steps = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const seed = SEED + trial;
      const where = `trial ${trial} (TANDEM_CRASH_SEED=${SEED})`;
      const t0 = performance.now();
      steps += (await runAndKill(seed, random)).steps;
      const t1 = performance.now();

      const project = await openProjectJournal({ folder, dataDir });
      try {
        expect(project.readOnly, `${where}: the lock outlived its owner`).toBeUndefined();
        await project.tracker.prepare();
        const temps = filesUnder(folder).filter((name) => /\.tandem-[0-9a-f]+\.tmp$/.test(name));
        expect(temps, `${where}: temp files left`).toEqual([]);
        const objectTemps = filesUnder(
          join(projectDataDir(dataDir, folder), 'journal', 'objects', 'tmp'),
        );
        expect(objectTemps, `${where}: store temps left`).toEqual([]);
        for (const [name] of stateOf(folder)) {
          if (name === '.cmd.part' || name.startsWith('.git') || name === 'link') continue;
          expect(isWhole(readFileSync(join(folder, name))), `${where}: ${name} is torn`).toBe(true);
        }
        const all = [...project.journal.calls.keys()];
        const undone = await project.journal.revertTurn(all);
        expect(undone, `${where}: not every call could be reverted`).toMatchObject({ ok: true });
        expect(
          Object.fromEntries(stateOf(folder)),
          `${where}: undo did not give back the start`,
        ).toEqual(Object.fromEntries(initial));
      } finally {
        await project.release();
      }
      if (process.env.TANDEM_CRASH_TIMING)
        console.log(
          `${where}: run ${(t1 - t0).toFixed(0)} ms, check ${(performance.now() - t1).toFixed(0)} ms`,
        );
    }
    // The trials must have killed it while it worked, not only while it started.
    expect(steps).toBeGreaterThan(TRIALS);
  }, 600_000);
});
