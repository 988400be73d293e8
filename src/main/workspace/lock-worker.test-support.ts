// A second process for the lock tests (project-lock.test.ts): takes the project lock the way
// Tandem does, prints what it got as one JSON line, and holds it until its stdin closes.
// Arguments: <project data folder> <socket|file>
import { acquireProjectLock } from './project-lock';

const [projectDir, form] = process.argv.slice(2) as [string, 'socket' | 'file'];

async function main(): Promise<void> {
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
