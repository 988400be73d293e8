import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import {
  eventsOfType,
  startHarness,
  testTools,
  type Harness,
} from '../../test-support/agent-harness';
import type { ScriptedTurn } from '../../test-support/scripted-openai-server';
import type { GateRequest } from '../permissions/gate';
import { createToolRegistry } from '../tools/registry';
import { defineTool, ToolError } from '../tools/tool';
import { createAgent } from './agent';
import { createOpenAIProvider } from './provider';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

const failing = [
  ...testTools(),
  defineTool({
    name: 'explode',
    description: '',
    parameters: Type.Object({}),
    effect: 'read',
    execute: async () => {
      throw new ToolError('the file is locked');
    },
  }),
  defineTool({
    name: 'crash',
    description: '',
    parameters: Type.Object({}),
    effect: 'read',
    execute: async () => {
      throw new RangeError('index 9 out of range');
    },
  }),
  defineTool({
    name: 'stall',
    description: '',
    parameters: Type.Object({}),
    effect: 'read',
    timeoutMs: 20,
    execute: () => new Promise(() => {}),
  }),
];

function toolMessages(body: { messages: readonly Record<string, unknown>[] }) {
  return body.messages.filter((m) => m.role === 'tool');
}

describe('every registry failure reaches the next model request', () => {
  it.each([
    {
      case: 'unknown tool',
      call: { name: 'delete_everything', arguments: {} },
      expected:
        /no tool named "delete_everything". Available tools: crash, echo, explode, fetch_page, note, stall, wait\./,
    },
    {
      case: 'arguments not JSON',
      call: { name: 'echo', arguments: '{"text": "hi' },
      expected: /arguments for echo are not valid JSON .*Received: \{"text": "hi/s,
    },
    {
      case: 'arguments not an object',
      call: { name: 'echo', arguments: '["hi"]' },
      expected: /arguments for echo must be a JSON object, got an array/,
    },
    {
      case: 'schema violation',
      call: { name: 'echo', arguments: { text: 5, times: '0' } },
      expected:
        /text: expected string, got number 5\n- times: expected a number >= 1, got number 0/,
    },
    {
      case: 'ToolError',
      call: { name: 'explode', arguments: {} },
      expected: /^Error: the file is locked$/,
    },
    {
      case: 'other thrown error',
      call: { name: 'crash', arguments: {} },
      expected: /^Error: crash failed: index 9 out of range$/,
    },
    {
      case: 'timeout',
      call: { name: 'stall', arguments: {} },
      expected: /^Error: stall timed out after 20 ms/,
    },
  ])('$case', async ({ call, expected }) => {
    harness = await startHarness({
      tools: failing,
      turns: [{ toolCalls: [{ ...call, id: 'call_x' }] }, { text: 'understood' }],
    });
    const run = harness.agent.startRun('go');
    expect(await run.done).toBe('done');
    const [, second] = harness.server.chatBodies();
    const [answer] = toolMessages(second!);
    expect(answer).toMatchObject({ tool_call_id: 'call_x' });
    expect(answer?.content).toMatch(expected);
    const [result] = eventsOfType(harness.events, 'tool-result');
    expect(result).toMatchObject({ callId: 'call_x', ok: false });
    expect(result?.provenance).toBe(
      call.name === 'explode' || call.name === 'crash' || call.name === 'stall'
        ? 'test gate'
        : undefined,
    );
  });
});

describe('streaming assembly', () => {
  const args = { text: 'héllo wörld ✓ 🎉 "quoted" \\ back\nslash', times: 2 };
  it.each([1, 2, 3, 5, 13])('tool-call deltas split every %i bytes', async (chunkBytes) => {
    harness = await startHarness({
      chunkBytes,
      deltaChars: 1,
      turns: [
        { text: 'Let me echo ✓', toolCalls: [{ name: 'echo', arguments: args, id: 'call_split' }] },
        { text: 'done' },
      ],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    const [started] = eventsOfType(harness.events, 'tool-call-started');
    expect(started).toMatchObject({ name: 'echo', args, effect: 'read', callId: 'call_split' });
    const second = harness.server.chatBodies()[1]!;
    const assistant = second.messages.find((m) => m.role === 'assistant');
    expect(assistant).toEqual({
      role: 'assistant',
      content: 'Let me echo ✓',
      tool_calls: [
        {
          id: 'call_split',
          type: 'function',
          function: { name: 'echo', arguments: JSON.stringify(args) },
        },
      ],
    });
    expect(toolMessages(second)[0]?.content).toBe(args.text.repeat(2));
    expect(
      eventsOfType(harness.events, 'assistant-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Let me echo ✓done');
  });
});

describe('several calls in one turn', () => {
  it('answers two calls in order, each with its own id', async () => {
    harness = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: 'echo', arguments: { text: 'a' } },
            { name: 'note', arguments: { text: 'b' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    const second = harness.server.chatBodies()[1]!;
    expect(toolMessages(second)).toEqual([
      { role: 'tool', tool_call_id: 'call_0_0', content: 'a' },
      { role: 'tool', tool_call_id: 'call_0_1', content: 'noted b' },
    ]);
  });

  it('runs five calls: reads side by side, writes one at a time in order', async () => {
    const log: string[] = [];
    const turn: ScriptedTurn = {
      toolCalls: [
        { name: 'wait', arguments: { ms: 30 } },
        { name: 'echo', arguments: { text: 'r1' } },
        { name: 'note', arguments: { text: 'w1' } },
        { name: 'note', arguments: { text: 'w2' } },
        { name: 'echo', arguments: { text: 'r2' } },
      ],
    };
    harness = await startHarness({ tools: testTools(log), turns: [turn, { text: 'ok' }] });
    expect(await harness.agent.startRun('go').done).toBe('done');
    // echo r1 ran while wait was still waiting; the writes came after both, in order.
    expect(log).toEqual(['wait:start', 'echo:r1', 'note:w1', 'note:w2', 'echo:r2']);
    const answers = toolMessages(harness.server.chatBodies()[1]!);
    expect(answers.map((m) => m.tool_call_id)).toEqual([
      'call_0_0',
      'call_0_1',
      'call_0_2',
      'call_0_3',
      'call_0_4',
    ]);
    expect(answers.map((m) => m.content)).toEqual([
      'waited 30',
      'r1',
      'noted w1',
      'noted w2',
      'r2',
    ]);
    const started = eventsOfType(harness.events, 'tool-call-started').map((e) => e.callId);
    expect(started).toEqual(['call_0_0', 'call_0_1', 'call_0_2', 'call_0_3', 'call_0_4']);
    // Only calls with others ahead of them in the turn make the gate wait and judge again.
    const waits = harness.gateRequests.map((r) => [r.callId, r.ready !== undefined]);
    expect(waits.sort()).toEqual([
      ['call_0_0', false],
      ['call_0_1', false],
      ['call_0_2', true],
      ['call_0_3', true],
      ['call_0_4', true],
    ]);
  });
});

describe('MCP "reads"', () => {
  it('an untrusted server’s read tools run one at a time (each may ask); a trusted one’s side by side', async () => {
    const log: string[] = [];
    const mcpRead = (name: string, trusted: boolean) =>
      defineTool({
        name,
        description: '',
        parameters: Type.Object({}),
        effect: 'read',
        mcp: {
          server: trusted ? 'trusted' : 'stranger',
          tool: name,
          trusted,
          sandboxed: true,
          annotations: 'read-only',
          destructive: false,
          definition: '0'.repeat(64),
        },
        execute: async () => {
          log.push(`${name}:start`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          log.push(`${name}:end`);
          return name;
        },
      });
    const tools = [
      mcpRead('mcp__stranger__a', false),
      mcpRead('mcp__stranger__b', false),
      mcpRead('mcp__trusted__c', true),
      mcpRead('mcp__trusted__d', true),
    ];
    const turn: ScriptedTurn = { toolCalls: tools.map((t) => ({ name: t.name, arguments: {} })) };
    harness = await startHarness({ tools, turns: [turn, { text: 'ok' }] });
    expect(await harness.agent.startRun('go').done).toBe('done');
    expect(log).toEqual([
      'mcp__stranger__a:start',
      'mcp__stranger__a:end',
      'mcp__stranger__b:start',
      'mcp__stranger__b:end',
      'mcp__trusted__c:start',
      'mcp__trusted__d:start',
      'mcp__trusted__c:end',
      'mcp__trusted__d:end',
    ]);
  });
});

describe('the gate', () => {
  it('sends a refusal to the model and skips the tool', async () => {
    const log: string[] = [];
    harness = await startHarness({
      tools: testTools(log),
      gate: async (request) =>
        request.tool.effect === 'read'
          ? { kind: 'run', provenance: 'read', permit: { basis: 'read-only' } }
          : { kind: 'refuse', message: 'The person declined: not now.' },
      turns: [{ toolCalls: [{ name: 'note', arguments: { text: 'x' } }] }, { text: 'ok' }],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    expect(log).toEqual([]);
    expect(toolMessages(harness.server.chatBodies()[1]!)[0]?.content).toBe(
      'The person declined: not now.',
    );
    expect(eventsOfType(harness.events, 'tool-result')[0]).not.toHaveProperty('provenance');
  });

  it('answers the call when the gate itself fails, and the run goes on', async () => {
    harness = await startHarness({
      gate: async () => {
        throw new Error('rules file unreadable');
      },
      turns: [{ toolCalls: [{ name: 'note', arguments: { text: 'x' } }] }, { text: 'ok' }],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    expect(toolMessages(harness.server.chatBodies()[1]!)[0]?.content).toBe(
      'Error: the permission check failed (rules file unreadable); the call did not run.',
    );
  });

  it('marks later requests as tainted once network content came in', async () => {
    harness = await startHarness({
      turns: [
        { toolCalls: [{ name: 'note', arguments: { text: 'before' } }] },
        { toolCalls: [{ name: 'fetch_page', arguments: { url: 'https://example.com/x' } }] },
        { toolCalls: [{ name: 'note', arguments: { text: 'after' } }] },
        { text: 'ok' },
        // A later run of the same session: the fetched page is still in the history.
        { toolCalls: [{ name: 'note', arguments: { text: 'next run' } }] },
        { text: 'ok' },
        // The session reopened from its transcript keeps the taint too.
        { toolCalls: [{ name: 'note', arguments: { text: 'reopened' } }] },
        { text: 'ok' },
      ],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    expect(harness.gateRequests.map((r) => r.taintedBy)).toEqual([
      undefined,
      undefined,
      'after reading https://example.com/x',
    ]);
    expect(await harness.agent.startRun('again').done).toBe('done');
    expect(harness.gateRequests[3]?.taintedBy).toBe('after reading https://example.com/x');

    const requests: GateRequest[] = [];
    const reopened = createAgent({
      provider: createOpenAIProvider({
        baseUrl: harness.server.baseUrl,
        model: 'scripted-model',
        apiKey: 'k',
      }),
      registry: createToolRegistry(testTools()),
      gate: async (request) => {
        requests.push(request);
        return { kind: 'run', provenance: 'test', permit: { basis: 'person' } };
      },
      folder: harness.folder,
      dataDir: harness.dataDir,
      sessionId: harness.agent.sessionId,
      systemPrompt: 'test',
    });
    try {
      expect(await reopened.startRun('after restart').done).toBe('done');
      expect(requests[0]?.taintedBy).toBe('after reading https://example.com/x');
    } finally {
      await reopened.close();
    }
  });

  it('gives the gate validated, coerced arguments', async () => {
    harness = await startHarness({
      turns: [
        { toolCalls: [{ name: 'echo', arguments: { text: 'a', times: '3' } }] },
        { text: 'ok' },
      ],
    });
    await harness.agent.startRun('go').done;
    expect(harness.gateRequests[0]?.args).toEqual({ text: 'a', times: 3 });
  });
});
