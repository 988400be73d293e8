// `tandem run` within a small window: the older part is compacted on its own, each request's
// tokens and the window's use are printed, and `--session` continues from the summary with the
// new task whole.
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARISER_PROMPT } from '../main/agent/compaction';
import { SUMMARY_HEADER } from '../main/agent/context';
import { makeTempDir, testTools } from '../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedTurn,
} from '../test-support/scripted-openai-server';
import type { CliIo } from './cli-io';
import { main } from './index';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function memoryIo(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env: { OPENAI_API_KEY: 'k' },
    cwd,
  };
  return { io, stderr: () => err.join('') };
}

type Body = { messages: { role: string; content: string | null }[] };

describe('tandem run in a small window', () => {
  it('compacts on its own, prints tokens per request, and --session goes on from the summary', async () => {
    let steps = 0;
    const turns = (_index: number, body: unknown): ScriptedTurn => {
      const { messages } = body as Body;
      if (messages[0]?.content === SUMMARISER_PROMPT) return { text: 'SUMMARY: read six parts.' };
      const task = messages.findLast((m) => m.role === 'user')?.content ?? '';
      if (task === 'second task') return { text: 'second done' };
      // The model thinks aloud at length: its own words shrink last, so compaction must come.
      return ++steps > 6
        ? { text: 'first done' }
        : {
            text: `Part ${steps}: ${'reasoning about the parts '.repeat(120)}`,
            toolCalls: [{ name: 'echo', arguments: { text: `part ${steps} `.repeat(400) } }],
          };
    };
    const server = await startScriptedOpenAIServer({ turns, model: 'house-model' });
    const folder = await makeTempDir('cli-ctx-proj');
    const dataDir = await makeTempDir('cli-ctx-data');
    cleanups.push(
      () => server.close(),
      () => rm(folder, { recursive: true, force: true }),
      () => rm(dataDir, { recursive: true, force: true }),
    );
    const args = ['run', '--base-url', server.baseUrl, '--model', 'house-model'];
    args.push('--data-dir', dataDir, '--context-tokens', '8192');
    const deps = { createTools: () => testTools() };

    const first = memoryIo(folder);
    expect(await main([...args, 'first task'], first.io, deps)).toBe(0);
    expect(first.stderr()).toMatch(/… context compacted: \d+ earlier messages summarised/);
    expect(first.stderr()).toMatch(
      / {2}· 10 in, 5 out; context [\d,]+ of 8,192 tokens \(\d+ %\)\n/,
    );
    expect(first.stderr()).toMatch(/usage this session: \d+ requests: /);
    const sessionId = /session (\S+) \(continue it/.exec(first.stderr())?.[1];
    expect(sessionId).toBeTruthy();

    const second = memoryIo(folder);
    expect(await main([...args, '--session', sessionId!, 'second task'], second.io, deps)).toBe(0);
    const sent = (server.chatBodies().at(-1) as unknown as Body).messages;
    expect(sent[1]?.content?.startsWith(`${SUMMARY_HEADER}\n\nSUMMARY: read six parts.`)).toBe(
      true,
    );
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'second task' });
    expect(JSON.stringify(sent)).not.toContain('first task');
    // Every request of both runs fitted the window as Tandem counted it.
    const uses = [...first.stderr().matchAll(/context ([\d,]+) of 8,192/g)].map((m) =>
      Number(m[1]?.replace(/,/g, '')),
    );
    expect(uses.length).toBeGreaterThan(6);
    expect(Math.max(...uses)).toBeLessThanOrEqual(8192 - 2048);
  });
});
