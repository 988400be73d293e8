// The first request of a fresh session goes out counted by the UTF-8 byte bound, before the
// tokenizer has loaded; the tokenizer loads once that request is sent and counts from the next
// fit on; a reopened session whose history the bound would cut waits for the tokenizer and is
// fitted by it. The first describe must run first in this file: it observes that o200k is not
// loaded in the process yet (vitest gives each file its own modules).
import { channel } from 'node:diagnostics_channel';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { allowAll, eventsOfType, makeTempDir, testTools } from '../../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedTurn,
} from '../../test-support/scripted-openai-server';
import { createToolRegistry } from '../tools/registry';
import { createAgent, type AgentOptions } from './agent';
import type { ChatProvider } from './provider';
import { createOpenAIProvider } from './provider';
import { MODEL_REQUEST_SENT_CHANNEL } from './request-sent';
import {
  loadedTokenizer,
  loadTokenizer,
  MessageCounter,
  utf8Bound,
  type TextCounter,
} from './token-counter';
import { handOver, sessionCounter } from './tokenizer-handover';

const BOUND_NAME = utf8Bound().name;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An agent on a temp project against the scripted server; `loadedAtRequest` says, for each
 * model request, whether o200k had loaded in this process when the runner asked for it. */
async function setup(model: string, turns: readonly ScriptedTurn[], extra: Partial<AgentOptions>) {
  const server = await startScriptedOpenAIServer({ turns, model });
  const folder = await makeTempDir('handover-proj');
  const dataDir = await makeTempDir('handover-data');
  cleanups.push(
    () => server.close(),
    () => rm(folder, { recursive: true, force: true }),
    () => rm(dataDir, { recursive: true, force: true }),
  );
  const real = createOpenAIProvider({ baseUrl: server.baseUrl, model, apiKey: 'k' });
  const loadedAtRequest: boolean[] = [];
  const provider: ChatProvider = {
    model: real.model,
    baseUrl: real.baseUrl,
    streamTurn(request) {
      loadedAtRequest.push(loadedTokenizer('o200k_base') !== undefined);
      return real.streamTurn(request);
    },
  };
  const open = (sessionId?: string) => {
    const agent = createAgent({
      provider,
      registry: createToolRegistry(testTools()),
      gate: allowAll,
      folder,
      dataDir,
      ...extra,
      ...(sessionId ? { sessionId } : {}),
    });
    const events: RunEvent[] = [];
    agent.onEvent((event) => events.push(event));
    cleanups.push(() => agent.close());
    return { agent, events };
  };
  return { server, open, loadedAtRequest };
}

const PROSE = 'The quick brown fox jumps over the lazy dog, and then it rests. ';

describe('a fresh session (runs first: o200k is not loaded yet)', () => {
  it('sends its first request before the tokenizer has loaded, and counts with it from then on', async () => {
    const echo: ScriptedTurn = { toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] };
    const { server, open, loadedAtRequest } = await setup(
      'gpt-4o',
      [echo, { text: 'done' }, { text: 'again' }],
      {},
    );
    expect(loadedTokenizer('o200k_base')).toBeUndefined();
    const { agent, events } = open();
    await agent.startRun('task').done;
    await agent.startRun('another').done;
    expect(server.chatBodies()).toHaveLength(3);
    expect(loadedAtRequest).toEqual([false, true, true]);
    expect(eventsOfType(events, 'context-use').map((use) => use.counter)).toEqual([
      BOUND_NAME,
      'o200k_base',
      'o200k_base',
    ]);
  });
});

describe('a reopened session the byte bound would cut', () => {
  it('waits for the tokenizer and sends its whole history, within the window', async () => {
    // Each echo answers ~9.6 KB of prose: ~2,000 o200k tokens but 9,600 by the byte bound.
    const echo: ScriptedTurn = {
      toolCalls: [{ name: 'echo', arguments: { text: PROSE, times: 150 } }],
    };
    const { server, open } = await setup(
      'gpt-4o-mini',
      [echo, echo, echo, { text: 'done' }, { text: 'next done' }],
      { contextTokens: 24_000 },
    );
    const first = open();
    await first.agent.startRun('read it three times').done;
    await first.agent.close();

    const reopened = open(first.agent.sessionId);
    await reopened.agent.startRun('next task').done;
    const [use] = eventsOfType(reopened.events, 'context-use');
    expect(use?.counter).toBe('o200k_base');
    const promptLimit = use!.windowTokens - use!.answerTokens;
    // The byte bound alone would be far past the window; the tokenizer's count is well within.
    const sent = server.chatBodies().at(-1)!;
    const bytes = Buffer.byteLength(JSON.stringify(sent.messages));
    expect(bytes).toBeGreaterThan(promptLimit);
    expect(use!.tokens).toBeLessThan(promptLimit);
    // Nothing was cut: all three outputs go whole.
    const outputs = sent.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(outputs).toEqual(Array(3).fill(PROSE.repeat(150)));
  });
});

describe('handOver', () => {
  function fakeTokenizer(): { load: () => Promise<TextCounter>; loads: () => number } {
    let loads = 0;
    const tokenizer: TextCounter = { kind: 'tokenizer', name: 'fake', count: (t) => t.length };
    return {
      load: async () => {
        loads++;
        return tokenizer;
      },
      loads: () => loads,
    };
  }
  const sent = (): void => channel(MODEL_REQUEST_SENT_CHANNEL).publish({});
  const turn = (): Promise<void> => new Promise((done) => setImmediate(done));

  it('loads once the first request is sent, and switches at the next fit', async () => {
    const counter = new MessageCounter(utf8Bound());
    const fake = fakeTokenizer();
    const counting = handOver(counter, fake.load);
    await counting.beforeFit(() => true);
    expect(counter.text.kind).toBe('bound');
    await turn();
    expect(fake.loads()).toBe(0);
    sent();
    await turn();
    expect(fake.loads()).toBe(1);
    // Loaded, but the counter that counted the request in flight stays until the next fit.
    expect(counter.text.kind).toBe('bound');
    await counting.beforeFit(() => true);
    expect(counter.text.name).toBe('fake');
    sent();
    await turn();
    expect(fake.loads()).toBe(1);
  });

  it('waits for the tokenizer when the bound would cut the first request', async () => {
    const counter = new MessageCounter(utf8Bound());
    const fake = fakeTokenizer();
    await handOver(counter, fake.load).beforeFit(() => false);
    expect(counter.text.name).toBe('fake');
  });

  it('waits for it at the second fit when no sent request was seen', async () => {
    const counter = new MessageCounter(utf8Bound());
    const fake = fakeTokenizer();
    const counting = handOver(counter, fake.load);
    await counting.beforeFit(() => true);
    await counting.beforeFit(() => true);
    expect(counter.text.name).toBe('fake');
    expect(fake.loads()).toBe(1);
  });

  it('counts with the byte estimate when the tokenizer will not load', async () => {
    const { counter, counting } = sessionCounter({ encoding: 'cl100k_base' }, () =>
      Promise.reject(new Error('no tables')),
    );
    expect(counter.text.kind).toBe('bound');
    await counting.exact();
    expect(counter.text.kind).toBe('estimate');
  });

  it('counts with a tokenizer loaded already, and by the estimate for an unknown encoding', async () => {
    await loadTokenizer('o200k_base');
    expect(sessionCounter({ encoding: 'o200k_base' }).counter.text.name).toBe('o200k_base');
    expect(sessionCounter({}).counter.text.kind).toBe('estimate');
  });
});
