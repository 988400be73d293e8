// The process the crash suite kills with SIGKILL (journal-crash.test.ts): it opens a project the
// way Tandem does and keeps changing it through the journal, the change tracker and undo, as fast
// as it can, printing each step, until it is killed. Every file it makes carries its own checksum
// on the first line, so the suite can tell a whole file from a torn one.
// Arguments: <folder> <dataDir> <pool folder> <seed>
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CRASH_NAMES, seeded, selfChecked } from './crash-fixture.test-support';
import { openProjectJournal } from './project-journal';

const [folder, dataDir, pool, seedText] = process.argv.slice(2) as [string, string, string, string];

async function main(): Promise<void> {
  const random = seeded(Number(seedText));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const project = await openProjectJournal({ folder, dataDir, lock: { waitMs: 10_000 } });
  if (project.readOnly) throw new Error(project.readOnly);
  const { journal, tracker } = project;
  await tracker.prepare();
  process.stdout.write('ready\n');
  const poolFiles = readdirSync(pool);
  const done: string[] = [];
  for (let step = 0; ; step++) {
    const callId = `${seedText}/${step}`;
    const roll = random();
    if (roll < 0.45) {
      const size = 1 + Math.floor(random() * 300_000);
      const body = `${callId} `.repeat(Math.ceil(size / (callId.length + 1)));
      await journal.write(join(folder, pick(CRASH_NAMES)), callId, selfChecked(body));
      done.push(callId);
    } else if (roll < 0.9) {
      const from = join(pool, pick(poolFiles));
      const to = pick(CRASH_NAMES);
      const script = pick([
        // Commands write atomically themselves (a killed cp would tear its own file).
        `mkdir -p "$(dirname '${to}')" && cp '${from}' .cmd.part && mv .cmd.part '${to}'`,
        `rm -f '${to}'`,
        `mkdir -p "$(dirname '${to}')" && cp '${from}' .cmd.part && mv .cmd.part '${to}' && rm -f '${pick(CRASH_NAMES)}'`,
        `chmod ${pick(['600', '644', '755'])} '${to}' 2>/dev/null; true`,
      ]);
      const before = await tracker.snapshotBefore(callId);
      if (!before.ok) throw new Error(before.reason);
      try {
        execFileSync('sh', ['-c', script], { cwd: folder, stdio: 'ignore' });
      } finally {
        await tracker.changesSince(callId);
      }
      done.push(callId);
    } else if (done.length > 0) {
      await journal.revert(pick(done));
    }
    process.stdout.write(`step ${step}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
