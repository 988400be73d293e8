// Undo while another local process swaps a folder of the project with a symlink to a folder outside
// (renameat2 RENAME_EXCHANGE, test-support/path-swap-racer.py), as fast as it can. Reverts restore,
// delete and remove folders inside that folder meanwhile: nothing outside may be written, deleted
// or created, and a revert that could not finish names the file it could not restore.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canRace, makeRaceFolders, runRacer } from '../../test-support/path-swap-race';
import { openFileJournal, type FileJournal } from './file-journal';

/** Calls set up and then reverted under swaps. */
const CALLS = 240;

let base = '';
let folder = '';
let outside = '';
let journal: FileJournal;

beforeEach(async () => {
  ({ base, folder, outside } = await makeRaceFolders('revert-race'));
  journal = await openFileJournal({ dir: join(base, 'data', 'journal'), folder });
});
afterEach(async () => {
  journal.close();
  await rm(base, { recursive: true, force: true });
});

/** What outside holds, every file with its content and every (empty) folder. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const at = join(entry.parentPath, entry.name);
    out.push(entry.isFile() ? `${at}=${await readFile(at, 'utf8')}` : `${at}/`);
  }
  return out.sort();
}

describe.skipIf(!canRace)('revert while a folder is swapped with a symlink out', () => {
  it('restores, deletes and removes folders only inside, and names what it could not restore', async () => {
    // Three kinds of call, each reverted under swaps: a change (restore), a new file (delete), a
    // new file in a new folder (delete, then remove the folder). Outside holds the same names.
    const kinds = ['changed', 'created', 'in-new-folder'] as const;
    const target = (i: number): string => {
      const kind = kinds[i % 3];
      return kind === 'in-new-folder' ? `race/d${i}/f${i}.txt` : `race/f${i}.txt`;
    };
    for (let i = 0; i < CALLS; i += 1) {
      const rel = target(i);
      if (kinds[i % 3] === 'changed') await writeFile(join(folder, rel), `original ${i}\n`);
      await journal.write(join(folder, rel), `c${i}`, `agent ${i}\n`);
      if (kinds[i % 3] === 'in-new-folder') await mkdir(join(outside, `d${i}`));
      else await writeFile(join(outside, `f${i}.txt`), `outside ${i}\n`);
    }
    const before = await snapshot(outside);

    let next = 0;
    let swaps = 0;
    const stopped: string[] = [];
    while (next < CALLS) {
      let finished = false;
      const racer = runRacer(folder, 1).finally(() => (finished = true));
      while (!finished && next < CALLS) {
        const i = next++;
        const result = await journal.revert(`c${i}`);
        if (!result.ok) {
          stopped.push(result.reason);
          // The file is named, whichever way it stopped.
          expect(result.reason).toContain(target(i));
        }
      }
      swaps += await racer;
    }
    expect(swaps).toBeGreaterThan(0);
    expect(await snapshot(outside)).toEqual(before);
    // Every call reverted now resolves inside, with the racer gone.
    for (let i = 0; i < CALLS; i += 1) {
      const result = await journal.revert(`c${i}`);
      if (result.ok) continue;
      expect(result.reason).toMatch(/already reverted|changed since|could not safely reach/);
    }
    expect(await snapshot(outside)).toEqual(before);
    // No temp file of a stopped restore is left behind inside either.
    expect((await snapshot(join(folder, 'race'))).filter((e) => e.includes('.tandem-'))).toEqual(
      [],
    );
    console.log(`revert race: ${swaps} swaps, ${CALLS} reverts, ${stopped.length} stopped`);
  });
});
