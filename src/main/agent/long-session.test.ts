// Hours of work against a provider with a 150,000-token window that refuses (HTTP 400) any
// request past it, as OpenAI does: 500 model steps in five tasks, the session closed and reopened
// half way, through the real provider, runner and transcript. The scripted server counts tokens
// its own way (o200k of every message's JSON), so Tandem stays within the window only by
// counting, calibrating from the reported usage, shrinking and compacting.
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { allowAll, eventsOfType, makeTempDir, testTools } from '../../test-support/agent-harness';
import { contextLimit } from '../../test-support/scripted-context-limit';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedTurn,
} from '../../test-support/scripted-openai-server';
import { seededRandom, suiteSeed, type Random } from '../../test-support/seeded-random';
import { createToolRegistry } from '../tools/registry';
import { createAgent, type Agent } from './agent';
import type { ChatMessage } from './chat-message';
import { SUMMARISER_PROMPT } from './compaction';
import { SUMMARY_HEADER } from './context';
import { createOpenAIProvider } from './provider';

const LIMIT = 150_000;
const TASKS = 5;
const STEPS_PER_TASK = 100;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const WORDS = ['value', 'count', 'items', 'result', 'index', 'buffer', 'config', 'session'];

/** Code-like text: identifiers, numbers, punctuation and line breaks, as a model reads and writes. */
function code(random: Random, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const name = `${random.pick(WORDS)}${random.int(1000)}`;
    const line = random.chance(0.5)
      ? `  const ${name} = ${random.pick(WORDS)}.map((x) => x * ${random.int(97)});`
      : `export function ${name}(a: number, b: string): boolean { return a > ${random.int(10_000)}; }`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

function prose(random: Random, bytes: number): string {
  const words: string[] = [];
  let size = 0;
  while (size < bytes) {
    const word = random.pick(['I', 'will', 'now', 'check', 'the', 'tests', 'and', 'then', 'fix']);
    words.push(word);
    size += word.length + 1;
  }
  return `${words.join(' ')}.`;
}

/** One step of the model: some words, and a call that reads, writes or runs something. */
function stepTurn(random: Random, step: number): ScriptedTurn {
  const text = prose(random, random.between(100, 1200));
  if (step % 97 === 50) {
    // A whole generated file in one write: 200 KB of arguments.
    return { text, toolCalls: [{ name: 'note', arguments: { text: code(random, 200_000) } }] };
  }
  const roll = random.next();
  if (roll < 0.25) {
    return {
      text,
      toolCalls: [
        { name: 'note', arguments: { text: code(random, random.between(2000, 12_000)) } },
      ],
    };
  }
  // Output up to 40 KB, which the registry bounds at its output limit.
  const times = roll < 0.35 ? 40 : random.between(1, 10);
  return { text, toolCalls: [{ name: 'echo', arguments: { text: code(random, 1000), times } }] };
}

interface Observed {
  /** Per request that was not a summary: problems seen in its body. */
  readonly problems: string[];
  /** Server-counted prompt tokens of the requests that were not summaries, in order. */
  readonly counted: number[];
  summaries: number;
}

/** A request's body is sound: the system prompt first, every call answered, the task present. */
function check(messages: readonly ChatMessage[], task: string, problems: string[], at: number) {
  if (messages[0]?.role !== 'system') problems.push(`request ${at}: no system prompt first`);
  for (let i = 1; i < messages.length; i++) {
    const message = messages[i] as ChatMessage;
    if (message.role === 'tool') {
      problems.push(`request ${at}: an answer without its call`);
      return;
    }
    for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
      const next = messages[++i];
      if (next?.role !== 'tool' || next.tool_call_id !== call.id) {
        problems.push(`request ${at}: call ${call.id} not answered next`);
        return;
      }
    }
  }
  const present = messages.some(
    (m) =>
      m.role === 'user' &&
      (m.content === task || (m.content.startsWith(SUMMARY_HEADER) && m.content.endsWith(task))),
  );
  if (!present) problems.push(`request ${at}: the task "${task}" is missing`);
}

async function longSession(model: string, models: unknown[], contextTokens?: number) {
  const random = seededRandom(suiteSeed(150_500));
  const observed: Observed = { problems: [], counted: [], summaries: 0 };
  let task = '';
  let step = 0;
  // The server's own count of each request, read back while it is being answered.
  const ref: { server?: ScriptedServer } = {};
  const server = await startScriptedOpenAIServer({
    model,
    models,
    contextLimit: contextLimit(LIMIT),
    // Bodies reach 500 KB: check each as it comes instead of keeping them all.
    recordRequests: false,
    // Streams in large pieces: splitting is tested elsewhere, and 200 KB of arguments in 3-character
    // deltas would be most of this test's time.
    chunkBytes: 65_536,
    deltaChars: 8192,
    turns: (index, body) => {
      const messages = (body as { messages: ChatMessage[] }).messages;
      if (messages[0]?.content === SUMMARISER_PROMPT) {
        observed.summaries++;
        return { text: `Summary ${observed.summaries}: ${prose(random, 2000)}` };
      }
      observed.counted.push(ref.server?.promptTokens[index] ?? 0);
      check(messages, task, observed.problems, index);
      step++;
      return step % (STEPS_PER_TASK + 1) === 0
        ? { text: `Finished: ${task}` }
        : stepTurn(random, step);
    },
  });
  ref.server = server;
  const folder = await makeTempDir('long-proj');
  const dataDir = await makeTempDir('long-data');
  cleanups.push(
    () => server.close(),
    () => rm(folder, { recursive: true, force: true }),
    () => rm(dataDir, { recursive: true, force: true }),
  );
  const events: RunEvent[] = [];
  const open = (sessionId?: string): Agent => {
    const agent = createAgent({
      provider: createOpenAIProvider({ baseUrl: server.baseUrl, model, apiKey: 'k' }),
      registry: createToolRegistry(testTools()),
      gate: allowAll,
      folder,
      dataDir,
      maxSteps: STEPS_PER_TASK + 5,
      ...(contextTokens !== undefined ? { contextTokens } : {}),
      ...(sessionId ? { sessionId } : {}),
    });
    agent.onEvent((event) => events.push(event));
    cleanups.push(() => agent.close());
    return agent;
  };

  let agent = open();
  const reasons: string[] = [];
  for (let k = 1; k <= TASKS; k++) {
    if (k === 4) {
      // Continued later, as `tandem run --session` does: the compaction is found again.
      await agent.close();
      agent = open(agent.sessionId);
    }
    task = `Task ${k}: work through part ${k} of the plan.`;
    reasons.push(await agent.startRun(task).done);
  }
  return { server, observed, events, reasons, agent };
}

describe('a 500-step session against a 150,000-token window', () => {
  it.each([
    ['an unknown model, counted by calibrated bytes', 'house-model-7b', 'bytes / 2.5'],
    ['gpt-4o, counted with its tokenizer', 'gpt-4o', 'o200k_base'],
  ])('never gets HTTP 400: %s', { timeout: 600_000 }, async (_name, model, counter) => {
    const { server, observed, events, reasons, agent } = await longSession(model, [
      { id: model, object: 'model', context_length: LIMIT },
    ]);
    const uses = eventsOfType(events, 'context-use');
    const compactions = eventsOfType(events, 'context-compacted');
    const largest = Math.max(...observed.counted);
    console.log(
      `${model}: ${observed.counted.length} requests + ${observed.summaries} summaries; ` +
        `largest prompt ${largest} tokens (server's count); Tandem's count of the last ` +
        `${uses.at(-1)?.tokens} vs the server's ${observed.counted.at(-1)}; ` +
        `${compactions.length} compactions; counter ${uses.at(-1)?.counter}`,
    );

    expect(server.refusals).toEqual([]);
    expect(reasons).toEqual(Array(TASKS).fill('done'));
    expect(observed.counted).toHaveLength(TASKS * (STEPS_PER_TASK + 1));
    expect(observed.problems).toEqual([]);
    expect(uses[0]).toMatchObject({ windowTokens: LIMIT, windowSource: 'provider' });
    expect(uses.at(-1)?.counter.startsWith(counter)).toBe(true);
    // Compaction ran, by itself, and each summary replaced more than it added.
    expect(compactions.length).toBeGreaterThan(0);
    for (const c of compactions) {
      expect(c.by).toBe('auto');
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    }
    expect(observed.summaries).toBe(compactions.length);
    // The window is used, not wasted: late requests carry more than half of it.
    expect(largest).toBeGreaterThan(LIMIT / 2);
    // Once calibrated, Tandem's count is never below the provider's by more than its margin.
    // Calibrated, Tandem's count stays near the provider's (uncalibrated bytes are 20-70 % off).
    const ratios = uses.slice(5).map((use, i) => use.tokens / (observed.counted[i + 5] as number));
    console.log(
      `Tandem's count / the server's: ${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)}`,
    );
    expect(Math.min(...ratios)).toBeGreaterThan(0.85);
    expect(Math.max(...ratios)).toBeLessThan(1.5);
    // The transcript keeps everything: every call and the whole 200 KB write.
    const messages = agent.messages();
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(TASKS * STEPS_PER_TASK);
    const longest = Math.max(
      ...messages.flatMap((m) =>
        m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function.arguments.length) : [],
      ),
    );
    expect(longest).toBeGreaterThan(200_000);
  });

  it(
    'learns the window from a refusal when the person set it too large',
    { timeout: 600_000 },
    async () => {
      const { server, events, reasons } = await longSession('gpt-4o', [{ id: 'gpt-4o' }], 200_000);
      expect(reasons).toEqual(Array(TASKS).fill('done'));
      // One refusal per opening of the session: what was learned lives as long as the agent (a
      // reopened session starts from the person's figure again, and learns again).
      expect(server.refusals).toHaveLength(2);
      const retried = eventsOfType(events, 'error').filter((e) => /too long/.test(e.message));
      expect(retried).toHaveLength(2);
      expect(retried[0]).toMatchObject({
        retrying: true,
        message: expect.stringMatching(
          /completion\)\. The provider refused .*its window: 150,000 tokens\); Tandem now fits requests to that window instead of 200,000/,
        ),
      });
      const uses = eventsOfType(events, 'context-use');
      expect(uses[0]).toMatchObject({ windowTokens: 200_000, windowSource: 'person' });
      expect(uses.at(-1)).toMatchObject({ windowTokens: LIMIT, windowSource: 'provider' });
    },
  );
});
