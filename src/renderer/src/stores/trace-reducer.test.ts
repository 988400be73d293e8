import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/events';
import { EMPTY_TRACE, type TraceState } from './trace-model';
import { MAX_TOOL_OUTPUT, applyRunEvent, applyRunEvents } from './trace-reducer';

const run = 'run-1';
const fold = (events: RunEvent[], from: TraceState = EMPTY_TRACE): TraceState =>
  events.reduce(applyRunEvent, from);

const started: RunEvent = {
  type: 'run-started',
  runId: run,
  sessionId: 's',
  task: 'fix it',
  at: 1,
};
const toolStarted: RunEvent = {
  type: 'tool-call-started',
  runId: run,
  callId: 'c1',
  name: 'shell',
  args: { command: 'npm test' },
  effect: 'exec',
  at: 2,
};
const approval: RunEvent = {
  type: 'approval-requested',
  runId: run,
  requestId: 'q1',
  callId: 'c1',
  name: 'shell',
  args: { command: 'npm test' },
  argsHash: 'h1',
  effect: 'exec',
  preview: { kind: 'text', text: 'npm test' },
  reasons: ['runs a command'],
  at: 3,
};

describe('applyRunEvent', () => {
  it('keeps the images a tool returned on its card', () => {
    const image = { mimeType: 'image/png' as const, data: 'iVBORw0KGgo=' };
    const state = fold([
      started,
      toolStarted,
      {
        type: 'tool-result',
        runId: run,
        callId: 'c1',
        ok: true,
        output: '[image 1: image/png, 8 bytes; shown to the person in the trace]',
        durationMs: 5,
        images: [image],
      },
    ]);
    expect(state.items[1]).toMatchObject({ kind: 'tool', status: 'done', images: [image] });
  });

  it('streams assistant text into one item and closes it when a tool starts', () => {
    const state = fold([
      started,
      { type: 'assistant-delta', runId: run, text: 'Let me ' },
      { type: 'assistant-delta', runId: run, text: 'look.' },
      toolStarted,
    ]);
    expect(state.activeRunId).toBe(run);
    expect(state.items.map((i) => i.kind)).toEqual(['task', 'assistant', 'tool']);
    expect(state.items[1]).toMatchObject({ text: 'Let me look.', streaming: false });
  });

  it('replaces streamed text with the final message', () => {
    const state = fold([
      started,
      { type: 'assistant-delta', runId: run, text: 'Draf' },
      { type: 'assistant-message', runId: run, text: 'Draft done.' },
    ]);
    expect(state.items.at(-1)).toMatchObject({
      kind: 'assistant',
      text: 'Draft done.',
      streaming: false,
    });
  });

  it.each<[string, RunEvent[], string]>([
    ['waits for approval', [approval], 'waiting'],
    [
      'runs after allow',
      [
        approval,
        {
          type: 'approval-resolved',
          runId: run,
          requestId: 'q1',
          callId: 'c1',
          answer: { kind: 'allow-once' },
          by: 'person',
          at: 4,
        },
      ],
      'running',
    ],
    [
      'is not run after deny',
      [
        approval,
        {
          type: 'approval-resolved',
          runId: run,
          requestId: 'q1',
          callId: 'c1',
          answer: { kind: 'deny' },
          by: 'person',
          at: 4,
        },
      ],
      'refused',
    ],
    [
      'is refused by policy',
      [{ type: 'permission-decided', runId: run, callId: 'c1', decision: 'refuse', reasons: [] }],
      'refused',
    ],
    [
      'finishes',
      [{ type: 'tool-result', runId: run, callId: 'c1', ok: true, output: 'ok', durationMs: 5 }],
      'done',
    ],
    [
      'fails',
      [{ type: 'tool-result', runId: run, callId: 'c1', ok: false, output: 'boom', durationMs: 5 }],
      'failed',
    ],
  ])('a tool call %s', (_name, events, status) => {
    const state = fold([started, toolStarted, ...events]);
    expect(state.items.find((i) => i.kind === 'tool')).toMatchObject({ status });
  });

  it('keeps one card per call: the approval, its answer and the result are one item', () => {
    const state = fold([
      started,
      toolStarted,
      approval,
      {
        type: 'approval-resolved',
        runId: run,
        requestId: 'q1',
        callId: 'c1',
        answer: { kind: 'allow-once' },
        by: 'person',
        at: 40,
      },
      { type: 'tool-result', runId: run, callId: 'c1', ok: true, output: 'ok', durationMs: 5 },
    ]);
    expect(state.items.map((i) => i.kind)).toEqual(['task', 'tool']);
    expect(state.items[1]).toMatchObject({
      status: 'done',
      runningSince: 40,
      durationMs: 5,
      approval: { requestId: 'q1', answer: { kind: 'allow-once' }, by: 'person', answeredAt: 40 },
    });
  });

  it('records the answer on the approval card', () => {
    const state = fold([
      started,
      toolStarted,
      approval,
      {
        type: 'approval-resolved',
        runId: run,
        requestId: 'q1',
        callId: 'c1',
        answer: { kind: 'deny' },
        by: 'stop',
        at: 4,
      },
    ]);
    expect(state.items.find((i) => i.kind === 'tool')).toMatchObject({
      status: 'refused',
      approval: { answer: { kind: 'deny' }, by: 'stop' },
    });
  });

  it('keeps the tail of long tool output', () => {
    const big = 'a'.repeat(MAX_TOOL_OUTPUT);
    const state = fold([
      started,
      toolStarted,
      { type: 'tool-output', runId: run, callId: 'c1', chunk: big },
      { type: 'tool-output', runId: run, callId: 'c1', chunk: 'END' },
    ]);
    const tool = state.items.find((i) => i.kind === 'tool');
    expect(tool?.kind === 'tool' && tool.output.length).toBe(MAX_TOOL_OUTPUT);
    expect(tool?.kind === 'tool' && tool.output.endsWith('END')).toBe(true);
    // The total still counts every character, so a terminal can tell what it missed.
    expect(tool?.kind === 'tool' && tool.outputTotal).toBe(big.length + 3);
  });

  it('sends output to its own card, leaving the other items as they were', () => {
    const before = fold([
      started,
      toolStarted,
      approval,
      { ...toolStarted, callId: 'c2', args: { command: 'ls' }, at: 4 },
    ]);
    const after = applyRunEvent(before, {
      type: 'tool-output',
      runId: run,
      callId: 'c1',
      chunk: 'ok\n',
    });
    const index = before.items.findIndex((i) => i.id === 'c1');
    expect(after.items[index]).toMatchObject({ id: 'c1', output: 'ok\n', outputTotal: 3 });
    expect(after.items.filter((_, i) => i !== index)).toEqual(
      before.items.filter((_, i) => i !== index),
    );
    after.items.forEach((item, i) => {
      if (i !== index) expect(item).toBe(before.items[i]);
    });
    // Output for a call the trace does not know changes nothing.
    const unknown = applyRunEvent(after, {
      type: 'tool-output',
      runId: run,
      callId: 'missing',
      chunk: 'x',
    });
    expect(unknown).toBe(after);
  });

  it('adds up usage and ends the run with a notice unless it finished normally', () => {
    const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const state = fold([
      started,
      { type: 'usage', runId: run, usage },
      { type: 'usage', runId: run, usage },
      { type: 'run-finished', runId: run, reason: 'stopped' },
    ]);
    expect(state.usage.totalTokens).toBe(30);
    expect(state.activeRunId).toBeNull();
    expect(state.items.at(-1)).toMatchObject({ kind: 'notice', text: 'Run stopped.' });
    expect(
      fold([started, { type: 'run-finished', runId: run, reason: 'done' }]).items,
    ).toHaveLength(1);
  });

  it("keeps the latest request's context use, usage and cost, and the session's totals", () => {
    const use = {
      tokens: 45_210,
      windowTokens: 128_000,
      answerTokens: 16_384,
      windowSource: 'table' as const,
      counter: 'o200k_base',
    };
    const session = {
      requests: 2,
      promptTokens: 90_000,
      cachedTokens: 40_000,
      completionTokens: 300,
    };
    const state = fold([
      started,
      { type: 'context-use', runId: run, ...use, tokens: 1000 },
      { type: 'context-use', runId: run, ...use },
      {
        type: 'usage',
        runId: run,
        usage: {
          promptTokens: 45_300,
          completionTokens: 120,
          totalTokens: 45_420,
          cachedTokens: 40_000,
        },
        costUsd: 0.05,
        session,
      },
    ]);
    expect(state.context).toEqual(use);
    expect(state.lastRequest).toEqual({
      usage: {
        promptTokens: 45_300,
        completionTokens: 120,
        totalTokens: 45_420,
        cachedTokens: 40_000,
      },
      costUsd: 0.05,
    });
    expect(state.session).toEqual(session);
  });

  it('shows one notice per failure: retries replace each other and the error is not repeated', () => {
    const retrying = (attempt: number): RunEvent => ({
      type: 'error',
      runId: run,
      message: `Tandem could not reach http://127.0.0.1:9/v1: connection refused. Retrying in 0.5 s (attempt ${attempt}).`,
      retrying: true,
      fault: 'unreachable',
    });
    const during = fold([started, retrying(2), retrying(3)]);
    expect(during.items.filter((i) => i.kind === 'notice')).toEqual([
      expect.objectContaining({ tone: 'warning', text: expect.stringContaining('(attempt 3)') }),
    ]);
    const message =
      'Tandem could not reach http://127.0.0.1:9/v1: connection refused (after 4 attempts).';
    const state = fold(
      [
        retrying(4),
        { type: 'error', runId: run, message, retrying: false, fault: 'unreachable' },
        { type: 'run-finished', runId: run, reason: 'error', message },
      ],
      during,
    );
    expect(state.items.filter((i) => i.kind === 'notice')).toEqual([
      {
        kind: 'notice',
        id: `error-${run}`,
        runId: run,
        tone: 'error',
        text: message,
        fault: 'unreachable',
        task: 'fix it',
      },
    ]);
  });

  it('writes an old lowercase message as a sentence', () => {
    const state = fold([
      started,
      {
        type: 'run-finished',
        runId: run,
        reason: 'error',
        message: 'the provider answered HTTP 401',
      },
    ]);
    expect(state.items.at(-1)).toMatchObject({ text: 'The provider answered HTTP 401.' });
  });

  it('a stopped call says stopped, and a denied one stays not run', () => {
    const stopped = fold([
      started,
      toolStarted,
      {
        type: 'tool-result',
        runId: run,
        callId: 'c1',
        ok: false,
        output: 'x',
        durationMs: 9,
        stopped: true,
      },
    ]);
    expect(stopped.items[1]).toMatchObject({ status: 'stopped' });
    const denied = fold([
      started,
      toolStarted,
      approval,
      {
        type: 'approval-resolved',
        runId: run,
        requestId: 'q1',
        callId: 'c1',
        answer: { kind: 'deny' },
        by: 'person',
        at: 4,
      },
      {
        type: 'tool-result',
        runId: run,
        callId: 'c1',
        ok: false,
        output: 'Denied',
        durationMs: 0,
        stopped: true,
      },
    ]);
    expect(denied.items[1]).toMatchObject({ status: 'refused' });
  });

  it('marks a reverted call and adds a line saying what was put back', () => {
    const state = fold([
      started,
      { ...toolStarted, name: 'edit_file', args: { path: 'src/sum.js' }, effect: 'write' },
      { type: 'tool-result', runId: run, callId: 'c1', ok: true, output: 'Edited', durationMs: 1 },
      {
        type: 'files-reverted',
        runId: run,
        scope: { kind: 'call', callId: 'c1' },
        files: [{ path: 'src/sum.js', action: 'restored' }],
        at: 9,
      },
    ]);
    expect(state.items[1]).toMatchObject({ reverted: true });
    expect(state.items.at(-1)).toMatchObject({
      kind: 'reverted',
      what: 'the edit of src/sum.js',
      files: [{ path: 'src/sum.js', action: 'restored' }],
    });
  });

  it('gives a repeated call id its own card, and later events go to the newest', () => {
    const state = fold([
      started,
      toolStarted,
      { type: 'tool-result', runId: run, callId: 'c1', ok: true, output: 'first', durationMs: 1 },
      toolStarted,
      { type: 'tool-output', runId: run, callId: 'c1', chunk: 'second' },
    ]);
    const tools = state.items.filter((i) => i.kind === 'tool');
    expect(tools.map((t) => [t.id, t.callId, t.result, t.output])).toEqual([
      ['c1', 'c1', 'first', ''],
      ['c1~2', 'c1', undefined, 'second'],
    ]);
  });

  it('folds a batch of events to the same trace as one at a time', () => {
    const events: RunEvent[] = [started, { type: 'assistant-delta', runId: run, text: 'Hi ' }];
    for (let i = 0; i < 30; i++) {
      const callId = `c${i}`;
      events.push(
        { ...toolStarted, callId, at: i },
        { type: 'tool-output', runId: run, callId, chunk: `out ${i}\n` },
        {
          type: 'tool-result',
          runId: run,
          callId,
          ok: i % 3 !== 0,
          output: `r${i}`,
          durationMs: i,
        },
      );
    }
    events.push({ type: 'error', runId: run, message: 'busy', retrying: true });
    events.push({ type: 'run-finished', runId: run, reason: 'done' });
    expect(applyRunEvents(EMPTY_TRACE, events, 7)).toEqual(
      events.reduce((state, event) => applyRunEvent(state, event, 7), EMPTY_TRACE),
    );
  });
});

describe('masked secrets', () => {
  it('keeps the marks and the original output for the person, the masked one as the result', () => {
    const state = fold([
      started,
      toolStarted,
      {
        type: 'tool-result',
        runId: run,
        callId: 'c1',
        ok: true,
        output: 'KEY=[secret masked: value of KEY, 12 chars]',
        durationMs: 3,
        secrets: [{ kind: 'value of KEY', chars: 12 }],
        unmasked: 'KEY=abc123def456',
      },
    ]);
    expect(state.items.at(-1)).toMatchObject({
      kind: 'tool',
      result: 'KEY=[secret masked: value of KEY, 12 chars]',
      secrets: [{ kind: 'value of KEY', chars: 12 }],
      unmasked: 'KEY=abc123def456',
    });
  });
});
