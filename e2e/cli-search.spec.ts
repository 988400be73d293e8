// The built CLI (out/main/cli.js, plain Node) runs search and find_files through the scan worker
// that the build emits as out/main/scan-worker.js: proof that the worker entry is built and found
// at run time, outside vitest and tsx.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../src/test-support/scripted-openai-server';

const cli = resolve(__dirname, '../out/main/cli.js');
let base = '';
let server: ScriptedServer | undefined;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-cli-search-')));
  await mkdir(join(base, 'proj', 'src'), { recursive: true });
  await writeFile(join(base, 'proj', 'src', 'a.ts'), 'const first = 1;\nconst needle = 2;\n');
});

afterAll(async () => {
  await server?.close();
  await rm(base, { recursive: true, force: true });
});

describe('built CLI', () => {
  it('emits the scan worker beside the main entries', () => {
    expect(existsSync(resolve(__dirname, '../out/main/scan-worker.js'))).toBe(true);
  });

  it('searches through the worker', async () => {
    // A fresh script per attempt, so a retry starts where the first attempt did.
    await server?.close();
    server = await startScriptedOpenAIServer({
      turns: [
        {
          toolCalls: [
            { name: 'search', arguments: { pattern: 'need[l]e' } },
            { name: 'find_files', arguments: { pattern: '*.ts' } },
          ],
        },
        { text: 'Found it.' },
      ],
    });
    const args = [
      cli,
      'run',
      '--folder',
      join(base, 'proj'),
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--data-dir',
      join(base, 'data'),
      '--json',
      'Find the needle',
    ];
    const child = spawn(process.execPath, args, { env: { ...process.env, OPENAI_API_KEY: 'k' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(0);
    const outputs = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { type: string; output?: string })
      .filter((event) => event.type === 'tool-result')
      .map((event) => event.output);
    // Read-only calls of one turn run together, so their results come in either order.
    expect(outputs.sort()).toEqual(['src/a.ts', 'src/a.ts:2: const needle = 2;']);
  });
});
