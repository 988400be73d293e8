// Runs a few lines of TypeScript (an ES module, top-level await allowed) in a fresh Node process
// through tsx: for what a test process cannot show itself, such as Node's lazy globals still
// untouched, or an environment variable Node reads only at start (NODE_EXTRA_CA_CERTS).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ChildRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `source` as a module of its own in a fresh `node --import tsx`, with `env` added to ours. */
export async function runTsChild(source: string, env: NodeJS.ProcessEnv = {}): Promise<ChildRun> {
  const dir = await mkdtemp(join(tmpdir(), 'tandem-ts-child-'));
  try {
    const script = join(dir, 'child.mts');
    await writeFile(script, source);
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (part: Buffer) => (stdout += part.toString()));
    child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    return { code, stdout, stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
