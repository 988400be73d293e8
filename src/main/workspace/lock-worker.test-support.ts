// A second process for the lock tests (project-lock.test.ts): takes the project lock the way
// Tandem does, prints what it got as one JSON line, and holds it until its stdin closes.
// Arguments: <project data folder> <socket|file> [a file to wait for before taking it]
import { existsSync } from 'node:fs';
import { acquireProjectLock } from './project-lock';

const [projectDir, form, go] = process.argv.slice(2) as [string, 'socket' | 'file', string?];

async function main(): Promise<void> {
  // Several workers started together take the lock at the same moment (the race test).
  while (go !== undefined && !existsSync(go)) await new Promise((r) => setTimeout(r, 1));
  const result = await acquireProjectLock(projectDir, { form });
  process.stdout.write(
    JSON.stringify(
      result.kind === 'owner'
        ? { kind: 'owner' }
        : { kind: 'held', holder: result.holder, message: result.message },
    ) + '\n',
  );
  process.stdin.resume();
  process.stdin.on('end', () => {
    void (result.kind === 'owner' ? result.release() : Promise.resolve()).then(() =>
      process.exit(0),
    );
  });
}

void main();
