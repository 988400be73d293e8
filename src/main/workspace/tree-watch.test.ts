// The change watch must see what a full walk sees. Two trackers follow the same folder, one
// through the watch and one walking it every time; seeded random commands (files and folders made,
// changed, moved, replaced and deleted, symlinks, mode changes) must give both the same changes.
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReport } from '../../shared/change-report';
import { ChangeTracker } from './change-tracker';
import { seeded } from './crash-fixture.test-support';
import { openFileJournal, type FileJournal } from './file-journal';

const SEED = Number(process.env.TANDEM_WATCH_SEED ?? 7);
const BATCHES = 60;

let base = '';
let folder = '';
const opened: { tracker: ChangeTracker; journal: FileJournal }[] = [];

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-watch-')));
  folder = join(base, 'proj');
  execFileSync('mkdir', ['-p', join(folder, 'd', 'e')]);
});
afterAll(async () => {
  for (const { tracker, journal } of opened) {
    await tracker.close();
    journal.close();
  }
  await rm(base, { recursive: true, force: true });
});

async function open(name: string, watch: boolean): Promise<ChangeTracker> {
  const journal = await openFileJournal({ dir: join(base, name, 'journal'), folder });
  const tracker = new ChangeTracker({
    folder,
    trackDir: join(base, name, 'track'),
    journal,
    watch,
  });
  opened.push({ tracker, journal });
  await tracker.prepare();
  return tracker;
}

const NAMES = ['a', 'b', 'd/c', 'd/e/f', 'd/e', 'd', 'g/h', 'g'];

function randomCommand(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const ops: string[] = [];
  for (let i = 0, n = 1 + Math.floor(random() * 5); i < n; i++) {
    const name = pick(NAMES);
    const other = pick(NAMES);
    ops.push(
      pick([
        `mkdir -p "$(dirname ${name})" && echo ${Math.floor(random() * 1000)} > ${name}`,
        `echo more >> ${name}`,
        `rm -rf ${name}`,
        `mkdir -p ${name}`,
        `mv ${name} ${other}`,
        `ln -s ${other} ${name}`,
        `chmod ${pick(['600', '755'])} ${name}`,
        `touch ${name}`,
        `rm -rf ${name} && mkdir -p ${name} && echo inner > ${name}/x`,
      ]),
    );
  }
  // Each step may fail (a missing source, a folder in the way): the rest still runs.
  return ops.map((op) => `(${op}) 2>/dev/null`).join('; ') + '; true';
}

const seen = (report: ChangeReport): string[] =>
  report.kind === 'tracked'
    ? report.files.map((f) => `${f.status} ${f.path} ${f.content} ${f.sizeAfter ?? '-'}`)
    : [`${report.kind}: ${report.reason}`];

describe('the change watch', () => {
  it(`sees what a full walk sees (${BATCHES} random commands, seed ${SEED})`, async () => {
    const watched = await open('watched', true);
    const walked = await open('walked', false);
    expect([watched.mode, walked.mode]).toEqual(['watch', 'walk']);
    const random = seeded(SEED);
    let changed = 0;
    for (let batch = 0; batch < BATCHES; batch++) {
      const command = randomCommand(random);
      const id = `b${batch}`;
      expect(await watched.snapshotBefore(id)).toEqual({ ok: true });
      expect(await walked.snapshotBefore(id)).toEqual({ ok: true });
      execFileSync('sh', ['-c', command], { cwd: folder });
      const fromWatch = seen(await watched.changesSince(id));
      const fromWalk = seen(await walked.changesSince(id));
      expect(fromWatch, `batch ${batch}: ${command}`).toEqual(fromWalk);
      changed += fromWalk.length;
    }
    expect(changed).toBeGreaterThan(BATCHES / 2); // The commands did change things.
  });
});
