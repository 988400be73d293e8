import { appendFileSync, copyFileSync, readFileSync, statSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tools/tool';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAll, startHarness, testTools, type Harness } from '../../test-support/agent-harness';
import { createToolRegistry } from '../tools/registry';
import { createAgent } from './agent';
import { eventsOfType } from '../../test-support/agent-harness';
import { DEFAULT_RECORDED_OUTPUT_CHARS } from './recorded-output-cap';
import { createOpenAIProvider } from './provider';
import { listSessionIds, repairHistory, Session } from './session';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

describe('sessions', () => {
  it('reopens a session from a transcript with a torn last line and continues it', async () => {
    harness = await startHarness({
      turns: [
        { toolCalls: [{ name: 'echo', arguments: { text: 'first' } }] },
        { text: 'did it' },
        { text: 'continued' },
      ],
    });
    const { agent, folder, dataDir, server } = harness;
    expect(await agent.startRun('task one').done).toBe('done');
    const before = agent.messages().slice();
    const file = agent.transcriptFile;
    await agent.close();
    appendFileSync(file, '{"kind":"event","at":1,"event":{"type":"tool-res');

    expect(listSessionIds(dataDir, folder)).toEqual([agent.sessionId]);
    const reopened = createAgent({
      provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
      registry: createToolRegistry(testTools()),
      gate: allowAll,
      folder,
      dataDir,
      sessionId: agent.sessionId,
      systemPrompt: 'test system prompt',
    });
    try {
      expect(reopened.messages()).toEqual(before);
      expect(reopened.pastEvents().map((e) => e.type)).toContain('run-finished');
      expect(await reopened.startRun('task two').done).toBe('done');
      const sent = server.chatBodies().at(-1)!.messages;
      expect(sent.map((m) => m.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
      ]);
      expect(sent.at(-1)).toEqual({ role: 'user', content: 'task two' });
      // Every line of the file is whole JSON except the torn one, which stays where it was.
      const bad = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line && !isJson(line));
      expect(bad).toEqual(['{"kind":"event","at":1,"event":{"type":"tool-res']);
    } finally {
      await reopened.close();
    }
  });

  it('records events and messages but not deltas', async () => {
    harness = await startHarness({ turns: [{ text: 'hello there' }] });
    await harness.agent.startRun('hi').done;
    const kinds = readFileSync(harness.agent.transcriptFile, 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            kind: string;
            event?: { type: string };
            message?: { role: string };
          },
      )
      .map((line) => line.event?.type ?? line.message?.role ?? line.kind);
    expect(kinds).toEqual([
      'meta',
      'run-started',
      'user',
      'context-use',
      'usage',
      'assistant',
      'assistant-message',
      'run-finished',
    ]);
  });

  it('refuses a second run while one is going, and a folder that does not exist', async () => {
    harness = await startHarness({ turns: [{ text: 'a', delayMs: 50 }] });
    const run = harness.agent.startRun('one');
    expect(() => harness!.agent.startRun('two')).toThrow(/already in progress/);
    await run.done;
    const missing = `${harness.folder}-missing`;
    await rm(missing, { force: true });
    expect(() =>
      createAgent({
        provider: createOpenAIProvider({
          baseUrl: harness!.server.baseUrl,
          model: 'm',
          apiKey: 'k',
        }),
        registry: createToolRegistry(),
        gate: allowAll,
        folder: missing,
        dataDir: harness!.dataDir,
      }),
    ).toThrow(/folder does not exist/);
  });

  it('fills in answers for tool calls a crash left unanswered', () => {
    const repaired = repairHistory([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'x', arguments: '{}' } },
          { id: 'b', type: 'function', function: { name: 'x', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
    ]);
    expect(repaired.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
      { role: 'tool', tool_call_id: 'b', content: 'not run: the session was interrupted' },
    ]);
  });
});

describe('reopening after a crash mid-turn', () => {
  it('answers calls that ran with their recorded output and only the rest as not run', async () => {
    harness = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: 'note', arguments: { text: 'migrated the db' } },
            // Two reads form one batch: echo finishes while wait is still running.
            { name: 'echo', arguments: { text: 'read it' } },
            { name: 'wait', arguments: { ms: 60_000 } },
          ],
        },
        { text: 'ok' },
      ],
    });
    const { agent, events, dataDir, folder } = harness;
    const run = agent.startRun('go');
    await until(() => events.some((e) => e.type === 'tool-output'));
    // The app dies here: this copy is the transcript as it was on disk.
    const crashed = agent.transcriptFile.replace(/\.jsonl$/, '-crashed.jsonl');
    copyFileSync(agent.transcriptFile, crashed);
    agent.stop(run.runId);
    await run.done;

    const id = crashed
      .split('/')
      .pop()!
      .replace(/\.jsonl$/, '');
    const reopened = Session.open(dataDir, folder, id);
    try {
      const calls = reopened.messages.find((m) => m.role === 'assistant')!;
      const ids = calls.role === 'assistant' ? calls.tool_calls!.map((c) => c.id) : [];
      expect(reopened.messages.filter((m) => m.role === 'tool')).toEqual([
        { role: 'tool', tool_call_id: ids[0], content: 'noted migrated the db' },
        { role: 'tool', tool_call_id: ids[1], content: 'read it' },
        { role: 'tool', tool_call_id: ids[2], content: 'not run: the session was interrupted' },
      ]);
    } finally {
      reopened.close();
    }
  });

  it('answers a call a crash cut off with what the journal found, and records it', async () => {
    harness = await startHarness({
      turns: [{ toolCalls: [{ name: 'wait', arguments: { ms: 60_000 } }] }, { text: 'ok' }],
    });
    const { agent, events, dataDir, folder } = harness;
    const run = agent.startRun('go');
    await until(() => events.some((e) => e.type === 'tool-output'));
    const crashed = agent.transcriptFile.replace(/\.jsonl$/, '-cut.jsonl');
    copyFileSync(agent.transcriptFile, crashed);
    agent.stop(run.runId);
    await run.done;
    const id = crashed
      .split('/')
      .pop()!
      .replace(/\.jsonl$/, '');
    const changes = { kind: 'tracked', files: [], revertable: false, notTracked: [] } as const;
    const asked: string[] = [];
    const reopened = Session.open(dataDir, folder, id, (callId) => {
      asked.push(callId);
      return { ok: false, output: 'Tandem stopped while this command was running.', changes };
    });
    try {
      expect(asked).toHaveLength(1);
      expect(reopened.messages.filter((m) => m.role === 'tool')).toEqual([
        {
          role: 'tool',
          tool_call_id: asked[0],
          content: 'Tandem stopped while this command was running.',
        },
      ]);
      expect(reopened.pastEvents.filter((e) => e.type === 'tool-result')).toMatchObject([
        { callId: asked[0], ok: false, changes },
      ]);
    } finally {
      reopened.close();
    }
    // Recorded: a second reopening has the answer as an ordinary result.
    const again = Session.open(dataDir, folder, id, () => {
      throw new Error('asked twice');
    });
    again.close();
  });

  it('uses recorded tool-result events for answers missing from the messages', () => {
    const call = (id: string) => ({
      id,
      type: 'function' as const,
      function: { name: 'x', arguments: '{}' },
    });
    const repaired = repairHistory(
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b'), call('c')] },
        { role: 'tool', tool_call_id: 'a', content: 'ok' },
      ],
      [
        { type: 'tool-result', runId: 'r', callId: 'b', ok: true, output: 'b ran', durationMs: 1 },
        { type: 'tool-result', runId: 'r', callId: 'zz', ok: true, output: 'other', durationMs: 1 },
      ],
    );
    expect(repaired.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
      { role: 'tool', tool_call_id: 'b', content: 'b ran' },
      { role: 'tool', tool_call_id: 'c', content: 'not run: the session was interrupted' },
    ]);
  });
});

describe('recorded tool output', () => {
  it('records a bounded part of a huge output, with a marker, while listeners get it all', async () => {
    const chunk = `${'y'.repeat(1023)}\n`;
    const loud = defineTool({
      name: 'loud',
      description: 'Prints 2 MB.',
      parameters: Type.Object({}),
      effect: 'read',
      async execute(_args, ctx) {
        for (let i = 0; i < 2048; i++) ctx.onOutput(chunk);
        return 'printed 2 MB';
      },
    });
    harness = await startHarness({
      tools: [loud],
      turns: [{ toolCalls: [{ name: 'loud', arguments: {} }] }, { text: 'done' }],
    });
    expect(await harness.agent.startRun('be loud').done).toBe('done');
    const total = 2048 * chunk.length;
    const live = eventsOfType(harness.events, 'tool-output');
    expect(live.map((e) => e.chunk.length).reduce((a, b) => a + b, 0)).toBe(total);

    const file = harness.agent.transcriptFile;
    expect(statSync(file).size).toBeLessThan(DEFAULT_RECORDED_OUTPUT_CHARS + 64 * 1024);
    const recorded = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event?: { type: string; chunk?: string } })
      .filter((line) => line.event?.type === 'tool-output')
      .map((line) => line.event!.chunk!);
    const marker = recorded.at(-1)!;
    expect(marker).toContain(`${total - DEFAULT_RECORDED_OUTPUT_CHARS} more characters`);
    expect(recorded.slice(0, -1).join('')).toBe(
      chunk.repeat(2048).slice(0, DEFAULT_RECORDED_OUTPUT_CHARS),
    );
    expect(harness.agent.messages().find((m) => m.role === 'tool')?.content).toBe('printed 2 MB');
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
