// Hostile commands against the change tracker: what they make must neither escape tracking
// silently nor exhaust Tandem's data folder.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeReport } from '../../shared/change-report';
import { ChangeTracker } from './change-tracker';
import { openFileJournal } from './file-journal';

let base = '';
let folder = '';
let dataDir = '';
const open: ChangeTracker[] = [];

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-attack-')));
  folder = join(base, 'proj');
  dataDir = join(base, 'data');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'a.txt'), 'one\n');
});
afterEach(async () => {
  for (const tracker of open.splice(0)) await tracker.close();
  await rm(base, { recursive: true, force: true });
});

type Mode = 'watch' | 'walk';

async function tracker(mode: Mode, options: { maxBytes?: number } = {}) {
  const journal = await openFileJournal({ dir: join(dataDir, 'journal'), folder });
  const shadow = new ChangeTracker({
    folder,
    trackDir: join(dataDir, 'track'),
    journal,
    watch: mode === 'watch',
    ...options,
  });
  open.push(shadow);
  await shadow.prepare();
  return { journal, shadow };
}

function runCommand(script: string): void {
  execFileSync('sh', ['-c', script], { cwd: folder });
}

/** Bytes the data folder holds on disk (allocated blocks, so a sparse copy cannot hide). */
async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir, { recursive: true })) {
    const s = await stat(join(dir, name));
    if (s.isFile()) total += s.blocks * 512;
  }
  return total;
}

describe.each<Mode>(['watch', 'walk'])('tracker under attack (%s)', (mode) => {
  it('does not copy a sparse file far above the byte cap into the data folder', async () => {
    const { shadow } = await tracker(mode, { maxBytes: 4 * 1024 * 1024 });
    expect(await shadow.snapshotBefore('sh1')).toEqual({ ok: true });
    runCommand('truncate -s 256M huge.bin; echo two >> a.txt');
    const report = await shadow.changesSince('sh1');
    expect(await diskBytes(dataDir)).toBeLessThan(16 * 1024 * 1024);
    // Not "no changes": the command's changes are stated as unknown, with the cap.
    expect(report).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/cap/) });
  });
});

function tracked(report: ChangeReport): Extract<ChangeReport, { kind: 'tracked' }> {
  if (report.kind !== 'tracked') throw new Error(`not tracked: ${report.reason}`);
  return report;
}

describe.each<Mode>(['watch', 'walk'])('names that are not UTF-8 (%s)', (mode) => {
  it('states a file whose name is not valid UTF-8 rather than missing it silently', async () => {
    await mkdir(join(folder, 'sub'));
    const { shadow } = await tracker(mode);
    expect(await shadow.snapshotBefore('sh1')).toEqual({ ok: true });
    // printf makes the raw byte 0xff; node would turn it into U+FFFD and lose the file.
    runCommand('printf secret > "$(printf \'x\\377\')"; printf more > "sub/$(printf \'y\\376\')"');
    const report = tracked(await shadow.changesSince('sh1'));
    expect(report.files).toEqual([]);
    expect(report.notTracked.join('\n')).toMatch(/x\\xff.*not valid UTF-8/);
    expect(report.notTracked.join('\n')).toMatch(/sub\/y\\xfe.*not valid UTF-8/);
  });
});

describe('two watches in one process', () => {
  it('distrusts its watch when another watch of the process flooded the shared inotify queue', async () => {
    const other = join(base, 'other');
    await mkdir(other);
    const { shadow } = await tracker('watch');
    const journal = await openFileJournal({ dir: join(base, 'data2', 'journal'), folder: other });
    const second = new ChangeTracker({
      folder: other,
      trackDir: join(base, 'data2', 'track'),
      journal,
    });
    open.push(second);
    await second.prepare();
    expect(await shadow.snapshotBefore('sh1')).toEqual({ ok: true });
    // One blocking burst: 20,000 events in the other project overflow the process's one inotify
    // queue (16,384 by default) before the loop reads it, and the change here is dropped.
    execFileSync('sh', [
      '-c',
      'cd "$1" && for i in $(seq 20000); do : > f$i; done; echo two > "$2/a.txt"',
      'sh',
      other,
      folder,
    ]);
    // The loop then reads the queue (the other watch counts its events) before this look.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const report = tracked(await shadow.changesSince('sh1'));
    expect(report.files.map((f) => f.path)).toEqual(['a.txt']);
  });
});
