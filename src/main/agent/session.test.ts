import { appendFileSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAll, startHarness, testTools, type Harness } from '../../test-support/agent-harness';
import { createToolRegistry } from '../tools/registry';
import { createAgent } from './agent';
import { createOpenAIProvider } from './provider';
import { listSessionIds, repairHistory } from './session';

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

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
