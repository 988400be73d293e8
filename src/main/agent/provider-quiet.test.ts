// A provider that goes quiet or breaks the wire protocol: each ends the turn with an error that
// names what happened, retried only where another attempt could help. Limits are tiny here so
// the tests end quickly; no test asserts how long anything took.
import { afterEach, describe, expect, it } from 'vitest';
import { eventsOfType, startHarness, type Harness } from '../../test-support/agent-harness';
import type { ScriptedTurn } from '../../test-support/scripted-openai-server';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

const chunk = (delta: object, finish: string | null = null): object => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

async function runWith(turns: ScriptedTurn[], timeouts = {}) {
  harness = await startHarness({ turns, maxAttempts: 2, timeouts });
  const reason = await harness.agent.startRun('go').done;
  const finished = eventsOfType(harness.events, 'run-finished')[0];
  return {
    reason,
    message: finished?.message ?? '',
    requests: harness.server.chatBodies().length,
    retries: eventsOfType(harness.events, 'error').filter((e) => e.retrying).length,
  };
}

describe('a provider that goes quiet', () => {
  it.each([
    {
      case: 'never answers (no headers)',
      quiet: 'silent' as const,
      timeouts: { connectMs: 150, idleMs: 60_000 },
      expected:
        /did not start answering within 150 ms \(the connect timeout; change it in Settings or with --connect-timeout\)/,
    },
    {
      case: 'sends headers, then nothing',
      quiet: 'headers-only' as const,
      timeouts: { connectMs: 60_000, idleMs: 60 },
      expected: /went quiet: nothing new for 60 ms \(the idle timeout/,
    },
    {
      case: 'sends only keep-alive comments',
      quiet: 'keep-alive' as const,
      timeouts: { connectMs: 60_000, idleMs: 80 },
      expected:
        /went quiet: nothing new for 80 ms \(the idle timeout; keep-alive messages do not count/,
    },
  ])(
    '$case → the limit fires, is retried once, and is named',
    async ({ quiet, timeouts, expected }) => {
      const result = await runWith([{ quiet }, { quiet }], timeouts);
      expect(result.reason).toBe('error');
      expect(result.message).toMatch(expected);
      expect(result.message).toMatch(/\(after 2 attempts\)\.$/);
      // The server may not have read a body before the limit fired; the events say it was retried.
      expect(result.retries).toBe(1);
    },
  );

  it('a provider that trickles useful chunks forever hits the request limit, not retried', async () => {
    const endless = Array.from({ length: 400 }, () => chunk({ content: '.' }));
    const result = await runWith([{ sse: endless, eventDelayMs: 10 }, { text: 'unused' }], {
      idleMs: 60_000,
      requestMs: 150,
    });
    expect(result.reason).toBe('error');
    expect(result.message).toMatch(
      /took longer than 150 ms in all \(the request time limit; change it in Settings or with --request-timeout\)\.$/,
    );
    expect(result.requests).toBe(1);
  });

  it('useful chunks keep the idle limit from firing', async () => {
    const slow = [
      ...Array.from({ length: 6 }, () => chunk({ content: 'ab' })),
      chunk({}, 'stop'),
      'data: [DONE]\n\n',
    ];
    const result = await runWith([{ sse: slow, eventDelayMs: 20 }], { idleMs: 5000 });
    expect(result.reason).toBe('done');
    expect(harness!.agent.messages().at(-1)).toEqual({
      role: 'assistant',
      content: 'abababababab',
    });
  });
});

describe('protocol errors are reported, not retried as network faults', () => {
  it.each([
    {
      case: 'a chunk that is not JSON',
      sse: ['data: {"choices": [oops\n\n'],
      expected: /sent a stream chunk that is not JSON: .*\(a protocol error; not retried\)\.$/,
    },
    {
      case: 'an error event in the stream',
      sse: ['data: {"error": {"message": "model overloaded"}}\n\n'],
      expected:
        /sent an error in the stream: model overloaded \(a protocol error; not retried\)\.$/,
    },
    {
      case: 'a null chunk',
      sse: ['data: null\n\n'],
      expected: /malformed stream chunk: .*\(a protocol error; not retried\)\.$/,
    },
    {
      case: 'choices that are not a list',
      sse: [{ choices: 'yes' }],
      expected: /malformed stream chunk at choices: .*\(a protocol error; not retried\)\.$/,
    },
    {
      case: 'text that is not a string',
      sse: [chunk({ content: 42 })],
      expected: /malformed stream chunk at choices.0.delta.content/,
    },
  ])('$case', async ({ sse, expected }) => {
    const result = await runWith([{ sse }, { text: 'should not be asked' }]);
    expect(result.reason).toBe('error');
    expect(result.message).toMatch(expected);
    expect(result.requests).toBe(1);
    expect(result.retries).toBe(0);
  });

  it('chunks without choices are skipped, not fatal', async () => {
    const sse = [
      { id: 'x', object: 'chat.completion.chunk' },
      chunk({ content: 'fine' }),
      { id: 'x', choices: [] },
      chunk({}, 'stop'),
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
      'data: [DONE]\n\n',
    ];
    const result = await runWith([{ sse }]);
    expect(result.reason).toBe('done');
    expect(eventsOfType(harness!.events, 'usage')[0]?.usage.totalTokens).toBe(4);
    expect(harness!.agent.messages().at(-1)).toEqual({ role: 'assistant', content: 'fine' });
  });
});
