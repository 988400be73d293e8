// Issue 11 item 6 / issue 10: the variable `--api-key-env` names, and the key itself in whatever
// variable it was copied to, never reach a child process. A real `tandem run` (spawned, so its own
// environment is the one children inherit) in autonomous mode runs a command that prints its
// environment into a file; neither the file, the model's view, the events nor the transcript
// hold the key.
import { spawn } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/agent-harness';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server';

const KEY = 'sk-leaktest-Q7w2Zr9vL4mN8pX1';
const COMMAND = 'env > leaked.txt; printenv MYKEY >> leaked.txt; echo "copy=$KEY_COPY"; env';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MYKEY: KEY,
    // The same key under a name Tandem was never told about.
    KEY_COPY: `Bearer ${KEY}`,
    HARMLESS_MARKER: 'still-here',
  };
  delete env.OPENAI_API_KEY;
  return env;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('tandem run --api-key-env', () => {
  it('keeps the key out of every command environment, in autonomous mode too', async () => {
    const server = await startScriptedOpenAIServer({
      turns: [
        { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
        { text: 'printed it' },
      ],
    });
    const folder = await makeTempDir('keyenv-proj');
    const dataDir = await makeTempDir('keyenv-data');
    cleanups.push(
      () => server.close(),
      () => rm(folder, { recursive: true, force: true }),
      () => rm(dataDir, { recursive: true, force: true }),
    );
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/index.ts',
        'run',
        '--folder',
        folder,
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--data-dir',
        dataDir,
        '--api-key-env',
        'MYKEY',
        '--mode',
        'autonomous',
        '--json',
        'print the environment',
      ],
      { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);

    // The key was sent where it belongs: to the provider.
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    // The command ran and printed an environment, without the key anywhere in it.
    const leaked = await readFile(join(folder, 'leaked.txt'), 'utf8');
    expect(leaked).toContain('HARMLESS_MARKER=still-here');
    expect(leaked).not.toContain(KEY);
    expect(leaked).not.toMatch(/^MYKEY=/m);
    expect(leaked).not.toMatch(/^KEY_COPY=/m);
    const toolMessage = server.chatBodies()[1]?.messages.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain('copy=\n');
    expect(JSON.stringify(server.chatBodies())).not.toContain(KEY);
    expect(stdout).toContain('HARMLESS_MARKER=still-here');
    expect(stdout).not.toContain(KEY);
    // Nothing Tandem wrote in its data folder (transcript, journal, copies, index) has it.
    for (const file of await filesUnder(dataDir)) {
      expect(await readFile(file, 'latin1'), file).not.toContain(KEY);
    }
  });
});
