// The set-up the path-race tests share: a project folder `race` and, beside it, a symlink
// `race_swap` to a folder outside the project; path-swap-racer.py exchanges the two
// (renameat2 RENAME_EXCHANGE) as fast as it can while a test works inside `race`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RACER = resolve(__dirname, 'path-swap-racer.py');

/** The racer calls renameat2 by its x86-64 syscall number and reads /proc. */
export const canRace =
  process.platform === 'linux' && process.arch === 'x64' && existsSync('/proc/self/fd');

export interface RaceFolders {
  /** Holds the other two; remove it when done. */
  readonly base: string;
  /** The project: holds `race` and the symlink `race_swap` to `outside`. */
  readonly folder: string;
  readonly outside: string;
}

export async function makeRaceFolders(prefix: string): Promise<RaceFolders> {
  const base = await realpath(await mkdtemp(join(tmpdir(), `tandem-${prefix}-`)));
  const folder = join(base, 'proj');
  const outside = join(base, 'outside');
  await mkdir(join(folder, 'race'), { recursive: true });
  await mkdir(outside);
  await symlink(outside, join(folder, 'race_swap'));
  return { base, folder, outside };
}

/** Runs the racer on `folder` for `seconds`; resolves with its swap count once it has put `race` back. */
export function runRacer(folder: string, seconds: number): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn('python3', [RACER, folder, String(seconds)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const swaps = /swaps (\d+)/.exec(out);
      if (code !== 0 || !swaps)
        fail(new Error(`the path-swap racer failed (exit ${code}): ${out}`));
      else done(Number(swaps[1]));
    });
  });
}
