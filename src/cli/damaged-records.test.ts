// `tandem run` in a project whose records on disk are damaged: the run goes ahead, and stderr
// says which records were skipped (a `null` journal line used to end every run with exit 3).
import { appendFile, mkdir, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { projectDataDir } from '../main/store/data-dir';
import { makeTempDir, testTools } from '../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../test-support/scripted-openai-server';
import type { CliIo } from './cli-io';
import { main } from './index';

let server: ScriptedServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function memoryIo(cwd: string) {
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: () => true },
    stderr: { write: (text: string) => err.push(text) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env: { OPENAI_API_KEY: 'k' },
    cwd,
  };
  return { io, stderr: () => err.join('') };
}

describe('damaged records on disk', () => {
  it('a null journal line and a damaged transcript line are skipped and reported', async () => {
    server = await startScriptedOpenAIServer({ turns: [{ text: 'one' }, { text: 'two' }] });
    const folder = await makeTempDir('damaged-proj');
    const dataDir = await makeTempDir('damaged-data');
    dirs.push(folder, dataDir);
    const projectDir = projectDataDir(dataDir, await realpath(folder));
    await mkdir(join(projectDir, 'journal'), { recursive: true });
    await appendFile(join(projectDir, 'journal', 'journal.jsonl'), 'null\n');
    const args = ['run', '--base-url', server.baseUrl, '--model', 'm', '--data-dir', dataDir];
    const deps = { createTools: () => testTools() };

    const first = memoryIo(folder);
    expect(await main([...args, 'first'], first.io, deps)).toBe(0);
    expect(first.stderr()).toContain('tandem run: skipped damaged records: ');
    expect(first.stderr()).toContain('journal.jsonl line 1: not a journal record');
    const sessionId = /session (\S+) \(continue it/.exec(first.stderr())?.[1];
    expect(sessionId).toBeTruthy();

    const transcript = join(projectDir, 'sessions', `${sessionId}.jsonl`);
    await appendFile(
      transcript,
      '{"kind":"message","at":1,"message":{"role":"assistant","content":null,"tool_calls":[null]}}\n',
    );
    const second = memoryIo(folder);
    expect(await main([...args, '--session', sessionId!, 'second'], second.io, deps)).toBe(0);
    expect(second.stderr()).toMatch(/line \d+: a damaged message \(message\.tool_calls\.0: /);
    expect(server.chatBodies()[1]!.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
  });
});
