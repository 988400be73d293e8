import { afterEach, describe, expect, it } from 'vitest';
import {
  eventsOfType,
  startHarness,
  testTools,
  type Harness,
} from '../../test-support/agent-harness';
import type { ScriptedTurn } from '../../test-support/scripted-openai-server';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

describe('stop', () => {
  it('stops during a tool: the tool is aborted and every call of the turn is answered', async () => {
    const turns: ScriptedTurn[] = [
      {
        toolCalls: [
          { name: 'wait', arguments: { ms: 60_000 } },
          { name: 'note', arguments: { text: 'later' } },
        ],
      },
      { text: 'continuing' },
    ];
    const log: string[] = [];
    harness = await startHarness({ turns, tools: testTools(log) });
    const h = harness;
    const run = h.agent.startRun('go');
    h.agent.onEvent((event) => {
      if (event.type === 'tool-output') h.agent.stop(run.runId);
    });
    expect(await run.done).toBe('stopped');
    const results = eventsOfType(h.events, 'tool-result');
    expect(results.map((r) => [r.callId, r.ok, r.output])).toEqual([
      ['call_0_0', false, 'cancelled by the user'],
      ['call_0_1', false, 'cancelled by the user'],
    ]);
    expect(eventsOfType(h.events, 'run-finished')[0]).toMatchObject({ reason: 'stopped' });
    expect(log).toEqual(['wait:start', 'wait:aborted']);
    // The history stays valid: the next run sends both answers after the assistant's calls.
    expect(await h.agent.startRun('go on').done).toBe('done');
    const next = h.server.chatBodies()[1]!;
    expect(next.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
  });

  it('stops while the model is answering and aborts the HTTP request', async () => {
    harness = await startHarness({ turns: [{ text: 'slow', delayMs: 60_000 }] });
    const run = harness.agent.startRun('go');
    while (harness.server.chatBodies().length === 0) await new Promise((r) => setTimeout(r, 5));
    harness.agent.stop(run.runId);
    expect(await run.done).toBe('stopped');
    expect(harness.agent.messages().map((m) => m.role)).toEqual(['user']);
  });

  it('stop cancels a pending approval', async () => {
    harness = await startHarness({
      gate: (request, _emit, signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () =>
            resolve({ kind: 'refuse', message: 'cancelled by the user' }),
          ),
        ),
      turns: [{ toolCalls: [{ name: 'note', arguments: { text: 'x' } }] }],
    });
    const h = harness;
    const run = h.agent.startRun('go');
    h.agent.onEvent((event) => {
      if (event.type === 'tool-call-started') setTimeout(() => h.agent.stop(run.runId), 5);
    });
    expect(await run.done).toBe('stopped');
    expect(h.agent.messages().at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_0_0',
      content: 'cancelled by the user',
    });
  });
});

describe('limits and provider faults', () => {
  it('ends at the step limit with a clear message', async () => {
    harness = await startHarness({
      turns: () => ({ toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] }),
      agent: { maxSteps: 3 },
    });
    expect(await harness.agent.startRun('loop').done).toBe('max-steps');
    expect(harness.server.chatBodies()).toHaveLength(3);
    expect(eventsOfType(harness.events, 'run-finished')[0]?.message).toMatch(
      /Stopped after 3 steps \(the step limit\)/,
    );
    expect(harness.agent.messages().at(-1)).toMatchObject({ role: 'tool', content: 'again' });
  });

  it('retries a 429, honouring Retry-After, then succeeds', async () => {
    const waits: number[] = [];
    harness = await startHarness({
      sleep: async (ms) => void waits.push(ms),
      turns: [
        { status: 429, retryAfter: '7' },
        { status: 503 },
        { text: 'hello', usage: { prompt_tokens: 7, completion_tokens: 2 } },
      ],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    // The server's 7 s is obeyed as asked (not cut to the harness's 20 ms backoff cap).
    expect(waits[0]).toBe(7000);
    expect(waits[1]).toBeLessThanOrEqual(20);
    const errors = eventsOfType(harness.events, 'error');
    expect(errors.map((e) => e.retrying)).toEqual([true, true]);
    expect(errors[0]?.message).toMatch(
      /^The provider at .* is limiting requests \(HTTP 429: scripted 429\)\. Retrying in 7\.0 s \(attempt 2\)\.$/,
    );
    expect(errors[0]?.fault).toBe('rate-limited');
    expect(errors[1]?.message).toMatch(/had a server error \(HTTP 503/);
    expect(errors[1]?.fault).toBe('server');
    expect(eventsOfType(harness.events, 'usage')[0]?.usage).toEqual({
      promptTokens: 7,
      completionTokens: 2,
      totalTokens: 9,
    });
    expect(harness.agent.messages().at(-1)).toEqual({ role: 'assistant', content: 'hello' });
  });

  it('does not retry when the provider asks to wait longer than Tandem waits', async () => {
    const waits: number[] = [];
    harness = await startHarness({
      sleep: async (ms) => void waits.push(ms),
      turns: [{ status: 429, retryAfter: '600' }, { text: 'too early' }],
    });
    expect(await harness.agent.startRun('go').done).toBe('error');
    expect(waits).toEqual([]);
    expect(harness.server.chatBodies()).toHaveLength(1);
    expect(eventsOfType(harness.events, 'run-finished')[0]?.message).toMatch(
      /HTTP 429.*the provider asked to wait 600 s before retrying/,
    );
    expect(eventsOfType(harness.events, 'error').map((e) => e.retrying)).toEqual([false]);
  });

  it('gives up on 500 forever with a clear error, and the session stays usable', async () => {
    let broken = true;
    harness = await startHarness({
      maxAttempts: 3,
      turns: () => (broken ? { status: 500 } : { text: 'back' }),
    });
    expect(await harness.agent.startRun('first').done).toBe('error');
    const finished = eventsOfType(harness.events, 'run-finished')[0];
    expect(finished?.message).toBe(
      `The provider at ${harness.server.baseUrl} had a server error (HTTP 500: scripted 500) (after 3 attempts).`,
    );
    expect(eventsOfType(harness.events, 'error').map((e) => e.retrying)).toEqual([
      true,
      true,
      false,
    ]);
    broken = false;
    expect(await harness.agent.startRun('second').done).toBe('done');
    const last = harness.server.chatBodies().at(-1)!;
    expect(last.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'first',
      'second',
    ]);
  });

  it('does not retry a 400 and names the problem', async () => {
    harness = await startHarness({ turns: [{ status: 401 }] });
    expect(await harness.agent.startRun('go').done).toBe('error');
    expect(eventsOfType(harness.events, 'run-finished')[0]?.message).toBe(
      `The provider at ${harness.server.baseUrl} refused the API key (HTTP 401: scripted 401); check the key in Settings.`,
    );
    expect(eventsOfType(harness.events, 'error')).toMatchObject([
      { retrying: false, fault: 'unauthorized' },
    ]);
  });

  it.each([
    {
      case: 'socket cut mid-stream',
      turn: { text: 'The answer is forty-two', cutAfterEvents: 4 },
      expected: /^The connection to the provider broke mid-answer: /,
    },
    {
      case: 'clean end without finish',
      turn: { text: 'The answer is forty-two', endAfterEvents: 4 },
      expected: /^The model's answer stopped half-way/,
    },
  ])('$case after text is an error, not a silent truncation', async ({ turn, expected }) => {
    harness = await startHarness({ turns: [turn] });
    expect(await harness.agent.startRun('go').done).toBe('error');
    expect(eventsOfType(harness.events, 'run-finished')[0]?.message).toMatch(expected);
    expect(harness.server.chatBodies()).toHaveLength(1);
    // What was shown stays in the history, as when the person stops the answer.
    const shown = eventsOfType(harness.events, 'assistant-delta')
      .map((e) => e.text)
      .join('');
    expect(shown.length).toBeGreaterThan(0);
    expect(harness.agent.messages()).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: shown },
    ]);
  });

  it('retries a stream cut before any text was shown', async () => {
    harness = await startHarness({
      turns: [
        { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }], cutAfterEvents: 3 },
        { text: 'whole' },
      ],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    expect(eventsOfType(harness.events, 'tool-call-started')).toEqual([]);
    expect(harness.agent.messages().at(-1)).toEqual({ role: 'assistant', content: 'whole' });
  });
});
