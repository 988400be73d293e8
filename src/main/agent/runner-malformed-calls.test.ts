// Malformed tool calls through the real wire: a turn with an impossible index is a protocol error
// (nothing allocated by it), arguments too deep or too big are answered with an error and the
// run goes on, and the transcript of all of it reopens.
import { afterEach, describe, expect, it } from 'vitest';
import {
  eventsOfType,
  startHarness,
  testTools,
  type Harness,
} from '../../test-support/agent-harness';
import type { ScriptedTurn } from '../../test-support/scripted-openai-server';
import { MAX_ARGUMENT_BYTES } from '../tools/argument-bounds';
import { createToolRegistry } from '../tools/registry';
import { createAgent } from './agent';
import { createOpenAIProvider } from './provider';

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

const callDelta = (index: unknown, name: string, args: string, id?: string): object =>
  chunk({ tool_calls: [{ index, ...(id ? { id } : {}), function: { name, arguments: args } }] });

const toolMessages = (h: Harness, request: number) =>
  h.server.chatBodies()[request]!.messages.filter((m) => m.role === 'tool');

describe('tool call indexes from the stream', () => {
  it.each([
    { case: 'index 100,000,000', index: 100_000_000, expected: /more than 128 tool calls/ },
    { case: 'index 1,000,000', index: 1_000_000, expected: /more than 128 tool calls/ },
    { case: 'a negative index', index: -3, expected: /index -3; an index must be a whole number/ },
    { case: 'a gap', index: 1, expected: /index 1 when the next call is 0/ },
  ])(
    '$case ends the turn as a protocol error; the session goes on',
    async ({ index, expected }) => {
      harness = await startHarness({
        turns: [
          {
            sse: [
              callDelta(index, 'echo', '{"text":"x"}', 'id1'),
              chunk({}, 'tool_calls'),
              'data: [DONE]\n\n',
            ],
          },
          { text: 'back' },
        ],
      });
      expect(await harness.agent.startRun('go').done).toBe('error');
      const message = eventsOfType(harness.events, 'run-finished')[0]?.message;
      expect(message).toMatch(expected);
      expect(message).toMatch(/\(a protocol error; not retried\)\.$/);
      expect(harness.server.chatBodies()).toHaveLength(1);
      expect(eventsOfType(harness.events, 'tool-call-started')).toEqual([]);
      expect(await harness.agent.startRun('again').done).toBe('done');
      expect(harness.server.chatBodies()[1]!.messages.map((m) => m.role)).toEqual([
        'system',
        'user',
        'user',
      ]);
    },
  );

  it('calls without ids get unique ids, across turns, each answered once', async () => {
    const noIds: ScriptedTurn = {
      sse: [
        callDelta(0, 'echo', '{"text":"a"}'),
        callDelta(1, 'echo', '{"text":"b"}'),
        chunk({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ],
    };
    harness = await startHarness({ turns: [noIds, noIds, { text: 'ok' }] });
    expect(await harness.agent.startRun('go').done).toBe('done');
    const ids = eventsOfType(harness.events, 'tool-result').map((r) => r.callId);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(toolMessages(harness, 2).map((m) => m.tool_call_id)).toEqual(ids);
  });
});

describe('arguments too deep or too big', () => {
  const deep = `{"text": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const huge = JSON.stringify({ text: 'x'.repeat(MAX_ARGUMENT_BYTES + 10) });

  it.each([
    {
      case: '5,000 levels deep',
      args: deep,
      expected: /^Error: the arguments for echo nest deeper than 64 levels/,
    },
    {
      case: 'over the size limit',
      args: huge,
      expected: new RegExp(
        `^Error: the arguments for echo are ${Buffer.byteLength(huge).toLocaleString('en-US')} bytes; the limit is ${MAX_ARGUMENT_BYTES.toLocaleString('en-US')}`,
      ),
    },
  ])(
    '$case: answered with an error, the run goes on, the transcript reopens',
    async ({ args, expected }) => {
      const log: string[] = [];
      harness = await startHarness({
        tools: testTools(log),
        deltaChars: 8192,
        chunkBytes: 65_536,
        turns: [
          { toolCalls: [{ id: 'call_big', name: 'echo', arguments: args }] },
          { text: 'understood' },
          { text: 'reopened fine' },
        ],
      });
      expect(await harness.agent.startRun('go').done).toBe('done');
      expect(log).toEqual([]);
      const [answer] = toolMessages(harness, 1);
      expect(answer?.tool_call_id).toBe('call_big');
      expect(answer?.content).toMatch(expected);
      // What the model sent is not sent back to it whole when it was too big.
      const sent = JSON.stringify(harness.server.chatBodies()[1]);
      expect(sent.length).toBeLessThan(MAX_ARGUMENT_BYTES);

      const reopened = createAgent({
        provider: createOpenAIProvider({
          baseUrl: harness.server.baseUrl,
          model: 'm',
          apiKey: 'k',
        }),
        registry: createToolRegistry(testTools()),
        gate: async () => ({ kind: 'run', provenance: 'test', permit: { basis: 'person' } }),
        folder: harness.folder,
        dataDir: harness.dataDir,
        sessionId: harness.agent.sessionId,
        systemPrompt: 'test',
      });
      try {
        expect(reopened.messages().map((m) => m.role)).toEqual([
          'user',
          'assistant',
          'tool',
          'assistant',
        ]);
        expect(await reopened.startRun('more').done).toBe('done');
      } finally {
        await reopened.close();
      }
    },
  );
});
