// Damaged records on disk: every transcript line is checked against a schema when a session is
// reopened; a bad line is skipped and reported, and the conversation sent on stays valid.
import { appendFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAll, startHarness, testTools, type Harness } from '../../test-support/agent-harness';
import { createToolRegistry } from '../tools/registry';
import { createAgent, type Agent } from './agent';
import { createOpenAIProvider } from './provider';

let harness: Harness | undefined;
let reopened: Agent | undefined;
afterEach(async () => {
  await reopened?.close();
  reopened = undefined;
  await harness?.cleanup();
  harness = undefined;
});

const message = (value: unknown): string =>
  JSON.stringify({ kind: 'message', at: 1, message: value });
const event = (value: unknown): string => JSON.stringify({ kind: 'event', at: 1, event: value });

describe('a transcript with damaged lines', () => {
  it.each([
    {
      case: 'tool_calls: [{}]',
      lines: [message({ role: 'assistant', content: null, tool_calls: [{}] })],
    },
    {
      case: 'tool_calls: [null]',
      lines: [message({ role: 'assistant', content: null, tool_calls: [null] })],
    },
    { case: 'a null line', lines: ['null'] },
    { case: 'a number line', lines: ['42'] },
    { case: 'a message of null', lines: [message(null)] },
    {
      case: 'an answer whose call was lost',
      lines: [
        message({ role: 'assistant', content: null, tool_calls: [{ id: 'lost' }] }),
        message({ role: 'tool', tool_call_id: 'lost', content: 'orphan' }),
      ],
    },
    {
      case: 'a tool-call-started event with a numeric name',
      lines: [
        event({
          type: 'tool-call-started',
          runId: 'r',
          callId: 'c',
          name: 5,
          args: {},
          effect: 'network',
          at: 1,
        }),
      ],
    },
    {
      case: 'a tool-result event without output',
      lines: [event({ type: 'tool-result', runId: 'r', callId: 'c', ok: true })],
    },
    { case: 'an event of unknown type', lines: [event({ type: 'launch-missiles' })] },
  ])('$case: skipped and reported; the session continues', async ({ lines }) => {
    harness = await startHarness({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'one' } }] },
        { text: 'first done' },
        { text: 'continued' },
      ],
    });
    const { agent, folder, dataDir, server } = harness;
    expect(await agent.startRun('task one').done).toBe('done');
    const before = agent.messages().slice();
    await agent.close();
    appendFileSync(agent.transcriptFile, lines.map((line) => `${line}\n`).join(''));

    reopened = createAgent({
      provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
      registry: createToolRegistry(testTools()),
      gate: allowAll,
      folder,
      dataDir,
      sessionId: agent.sessionId,
      systemPrompt: 'test system prompt',
    });
    expect(reopened.messages()).toEqual(before);
    expect(reopened.loadProblems().length).toBeGreaterThanOrEqual(1);
    expect(reopened.loadProblems()[0]).toMatch(/^line \d+: /);
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
  });
});
