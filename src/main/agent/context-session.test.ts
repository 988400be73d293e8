// The context of a whole session through the real provider, runner and transcript against the
// scripted server: the start of every request stays the same bytes, the project's instructions
// are reported, usage is summed (cached tokens, cost), and compaction asked for by the person.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { eventsOfType, makeTempDir, allowAll, testTools } from '../../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServerOptions,
  type ScriptedTurn,
} from '../../test-support/scripted-openai-server';
import { createToolRegistry } from '../tools/registry';
import { createAgent, type Agent, type AgentOptions } from './agent';
import { SUMMARISER_PROMPT } from './compaction';
import { SUMMARY_HEADER } from './context';
import { createOpenAIProvider } from './provider';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(
  model: string,
  turns: ScriptedServerOptions['turns'],
  agentOptions: Partial<AgentOptions> = {},
) {
  const server = await startScriptedOpenAIServer({ turns, model });
  const folder = await makeTempDir('ctx-proj');
  const dataDir = await makeTempDir('ctx-data');
  cleanups.push(
    () => server.close(),
    () => rm(folder, { recursive: true, force: true }),
    () => rm(dataDir, { recursive: true, force: true }),
  );
  const options: AgentOptions = {
    provider: createOpenAIProvider({ baseUrl: server.baseUrl, model, apiKey: 'k' }),
    registry: createToolRegistry(testTools()),
    gate: allowAll,
    folder,
    dataDir,
    ...agentOptions,
  };
  const open = (extra: Partial<AgentOptions> = {}): { agent: Agent; events: RunEvent[] } => {
    const agent = createAgent({ ...options, ...extra });
    const events: RunEvent[] = [];
    agent.onEvent((event) => events.push(event));
    cleanups.push(() => agent.close());
    return { agent, events };
  };
  return { server, folder, dataDir, open };
}

const echo = (text: string): ScriptedTurn => ({
  toolCalls: [{ name: 'echo', arguments: { text } }],
});

describe('the start of every request', () => {
  it('is the same bytes from request to request and run to run, tools in a fixed order', async () => {
    const { server, open } = await setup('gpt-4o-mini', [
      echo('one'),
      echo('two'),
      { text: 'first done' },
      echo('three'),
      { text: 'second done' },
    ]);
    const { agent, events } = open();
    await agent.startRun('first task').done;
    await agent.startRun('second task').done;
    const bodies = server.chatBodies() as unknown as Record<string, unknown>[];
    expect(bodies).toHaveLength(5);
    // Each request's share of the window, as counted, goes to the status bar and the CLI.
    const uses = eventsOfType(events, 'context-use');
    expect(uses).toHaveLength(5);
    // The first request is counted by its UTF-8 bytes while o200k loads (tokenizer-handover.ts);
    // every later one by o200k.
    expect(uses[0]).toMatchObject({
      windowTokens: 128_000,
      answerTokens: 16_384,
      windowSource: 'table',
      counter: 'UTF-8 bytes, an upper bound while the tokenizer loads',
    });
    expect(uses.slice(1).map((use) => use.counter)).toEqual(Array(4).fill('o200k_base'));
    expect(uses[4]!.tokens).toBeGreaterThan(uses[1]!.tokens);
    const starts = bodies.map((body) =>
      JSON.stringify([(body.messages as unknown[])[0], body.tools]),
    );
    expect(new Set(starts).size).toBe(1);
    const names = (bodies[0]?.tools as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(names).toEqual([...names].sort());
    // gpt-4o-mini: 128k window, 16,384 tokens kept for the answer, asked for the OpenAI way.
    expect(bodies.every((body) => body.max_completion_tokens === 16_384)).toBe(true);
  });

  it('asks for max_tokens from other models', async () => {
    const { server, open } = await setup('qwen2.5-coder:32b', [{ text: 'hi' }]);
    await open().agent.startRun('task').done;
    expect(server.chatBodies()[0]).toMatchObject({ max_tokens: 8192 });
  });
});

describe('project instructions', () => {
  it('are sent, and listed in the trace when first loaded and when changed', async () => {
    const { server, folder, open } = await setup('gpt-4o-mini', [
      { text: 'a' },
      { text: 'b' },
      { text: 'c' },
    ]);
    await writeFile(join(folder, 'AGENTS.md'), 'Always run `make check`.');
    const { agent, events } = open();
    await agent.startRun('one').done;
    await agent.startRun('two').done;
    await writeFile(join(folder, 'AGENTS.md'), 'Always run `make test`.');
    await agent.startRun('three').done;
    expect(eventsOfType(events, 'instructions-loaded')).toEqual([
      { type: 'instructions-loaded', runId: expect.any(String), file: 'AGENTS.md', chars: 24 },
      { type: 'instructions-loaded', runId: expect.any(String), file: 'AGENTS.md', chars: 23 },
    ]);
    const systems = server.chatBodies().map((b) => b.messages[0]?.content as string);
    expect(systems[1]).toBe(systems[0]);
    expect(systems[0]).toContain('Always run `make check`.');
    expect(systems[2]).toContain('Always run `make test`.');
  });
});

describe('usage', () => {
  it('sums prompt, cached and completion tokens per session, with a cost, across a reopening', async () => {
    const usage = {
      prompt_tokens: 1000,
      completion_tokens: 100,
      prompt_tokens_details: { cached_tokens: 600 },
    };
    const { open } = await setup(
      'gpt-4o-mini',
      [
        { ...echo('x'), usage },
        { text: 'done', usage },
        { text: 'again', usage },
      ],
      { prices: { inputPerMillion: 1, cachedInputPerMillion: 0.5, outputPerMillion: 4 } },
    );
    const first = open();
    await first.agent.startRun('task').done;
    const events = eventsOfType(first.events, 'usage');
    expect(events.map((e) => e.usage.cachedTokens)).toEqual([600, 600]);
    // 400 × $1 + 600 × $0.5 + 100 × $4, per million.
    expect(events[0]?.costUsd).toBeCloseTo(0.0011, 10);
    expect(events[1]?.session).toEqual({
      requests: 2,
      promptTokens: 2000,
      cachedTokens: 1200,
      completionTokens: 200,
      costUsd: expect.closeTo(0.0022, 10),
    });
    await first.agent.close();
    const reopened = open({ sessionId: first.agent.sessionId });
    await reopened.agent.startRun('more').done;
    expect(eventsOfType(reopened.events, 'usage')[0]?.session?.requests).toBe(3);
  });
});

describe('compaction asked for by the person', () => {
  const turns = (index: number, body: unknown): ScriptedTurn => {
    const messages = (body as { messages: { content: string }[] }).messages;
    if (messages[0]?.content === SUMMARISER_PROMPT)
      return { text: `SUMMARY after ${index} requests` };
    return index % 3 === 2 ? { text: 'done' } : echo(`result ${index} `.repeat(50));
  };

  it('says when there is nothing to compact', async () => {
    const { open } = await setup('gpt-4o-mini', turns);
    expect(await open().agent.compact()).toEqual({
      ok: false,
      message: 'Nothing to compact yet: the conversation holds only its latest turns.',
    });
  });

  it('summarises the older part; later requests and a reopened session start from the summary', async () => {
    const { server, open } = await setup('gpt-4o-mini', turns, { contextTokens: 16_000 });
    const { agent, events } = open();
    for (const task of ['first', 'second', 'third']) await agent.startRun(`${task} task`).done;
    const result = await agent.compact();
    expect(result).toEqual({
      ok: true,
      message: expect.stringMatching(/^The earlier conversation \(\d+ messages\) is summarised/),
    });
    const [compacted] = eventsOfType(events, 'context-compacted');
    expect(compacted).toMatchObject({ by: 'person', summary: 'SUMMARY after 9 requests' });
    const transcript = await readFile(agent.transcriptFile, 'utf8');
    expect(transcript).toContain('"type":"context-compacted"');

    await agent.startRun('fourth task').done;
    const next = server.chatBodies().at(-2);
    expect(next?.messages[1]).toEqual({
      role: 'user',
      content: `${SUMMARY_HEADER}\n\nSUMMARY after 9 requests`,
    });
    expect(JSON.stringify(next?.messages)).not.toContain('first task');
    await agent.close();

    const reopened = open({ sessionId: agent.sessionId });
    await reopened.agent.startRun('fifth task').done;
    const afterReopen = server
      .chatBodies()
      .find((body) => body.messages.at(-1)?.content === 'fifth task');
    expect(afterReopen?.messages[1]?.content).toBe(`${SUMMARY_HEADER}\n\nSUMMARY after 9 requests`);
    expect(afterReopen?.messages.at(-1)).toEqual({ role: 'user', content: 'fifth task' });
  });

  it('is refused while a run is going', async () => {
    const { open } = await setup('gpt-4o-mini', [
      { toolCalls: [{ name: 'wait', arguments: { ms: 200 } }] },
      { text: 'done' },
    ]);
    const { agent } = open();
    const run = agent.startRun('wait a bit');
    expect((await agent.compact()).message).toMatch(/^A run is going/);
    await run.done;
  });
});
