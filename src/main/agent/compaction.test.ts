import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat-message';
import { digestWithin, requestSummary, SUMMARISER_PROMPT } from './compaction';
import { SUMMARY_HEADER } from './context';
import type { ModelWindow } from './model-window';
import type { ChatProvider, TurnRequest } from './provider';
import { byteEstimate, MessageCounter } from './token-counter';

const counter = new MessageCounter(byteEstimate());

function session(turns: number): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'user', content: `${SUMMARY_HEADER}\n\nThe person wants a CSV parser.` },
    { role: 'user', content: 'Make it handle quoted fields.' },
  ];
  for (let i = 0; i < turns; i++) {
    messages.push(
      {
        role: 'assistant',
        content: i % 10 === 0 ? `Step ${i}: ${'thinking '.repeat(200)}` : null,
        tool_calls: [
          {
            id: `c${i}`,
            type: 'function',
            function: {
              name: 'write_file',
              arguments: JSON.stringify({
                path: `src/part-${i}.ts`,
                content: 'x\n'.repeat(5000),
              }),
            },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: `c${i}`,
        content: `Created src/part-${i}.ts\n${'y'.repeat(5000)}`,
      },
    );
  }
  return messages;
}

describe('the digest of the older part', () => {
  it('keeps everything, each text cut, when it fits', () => {
    const digest = digestWithin(session(3), 100_000, counter);
    expect(digest.split('\n')[0]).toBe('Summary of what came before:');
    expect(digest).toContain('Person: Make it handle quoted fields.');
    expect(digest).toContain('You called write_file (path: src/part-2.ts, content: x ⏎ x');
    expect(digest).toContain('(10,000 characters))');
    expect(digest).toContain('→ Created src/part-0.ts ⏎ yyy');
  });

  it.each([20_000, 5000, 1000])('fits %i tokens however long the session', (tokens) => {
    const digest = digestWithin(session(400), tokens, counter);
    expect(counter.text.count(digest)).toBeLessThanOrEqual(tokens);
    // The earlier summary, the first task and the latest turn survive.
    expect(digest).toContain('The person wants a CSV parser.');
    expect(digest).toContain('Person: Make it handle quoted fields.');
    expect(digest).toContain('src/part-399.ts');
  });
});

describe('the summary request', () => {
  const window: ModelWindow = {
    contextTokens: 16_000,
    answerTokens: 4000,
    source: 'person',
    limitField: 'max_tokens',
  };

  function model(text: string, asked: TurnRequest[]): ChatProvider {
    return {
      model: 'm',
      baseUrl: 'in-process',
      async streamTurn(request) {
        asked.push(request);
        return {
          text,
          toolCalls: [],
          finishReason: 'stop',
          usage: { promptTokens: 900, completionTokens: 100, totalTokens: 1000 },
        };
      },
    };
  }

  it('asks without tools, within the window, for an answer of an eighth of it', async () => {
    const asked: TurnRequest[] = [];
    const outcome = await requestSummary({
      provider: model('  The person wants a parser.  ', asked),
      counter,
      window,
      material: session(300),
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({
      ok: true,
      summary: 'The person wants a parser.',
      usage: { promptTokens: 900, completionTokens: 100, totalTokens: 1000 },
    });
    const request = asked[0] as TurnRequest;
    expect(request.tools).toEqual([]);
    expect(request.answerLimit).toEqual({ tokens: 2000, field: 'max_tokens' });
    expect(request.messages[0]).toEqual({ role: 'system', content: SUMMARISER_PROMPT });
    expect(counter.messages(request.messages)).toBeLessThanOrEqual(16_000 - 2000);
  });

  it('fails, as a value, when the model gives no text', async () => {
    const outcome = await requestSummary({
      provider: model('', []),
      counter,
      window,
      material: session(2),
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ ok: false, message: 'the model answered without a summary' });
  });
});
