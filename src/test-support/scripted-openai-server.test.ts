import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedOpenAIServer, type ScriptedServer } from './scripted-openai-server';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(s: ScriptedServer): OpenAI {
  return new OpenAI({ baseURL: s.baseUrl, apiKey: 'k', maxRetries: 0 });
}

describe('scripted OpenAI server', () => {
  it('answers non-streaming requests with text and tool calls, and records the bodies', async () => {
    server = await startScriptedOpenAIServer({
      turns: [
        { text: 'hi' },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' }, id: 'c1' }] },
      ],
    });
    const openai = client(server);
    const first = await openai.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(first.choices[0]?.message.content).toBe('hi');
    expect(first.usage?.total_tokens).toBe(15);
    const second = await openai.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'again' }],
    });
    expect(second.choices[0]?.finish_reason).toBe('tool_calls');
    expect(second.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'c1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
      },
    ]);
    expect(server.chatBodies().map((b) => b.messages[0])).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('lists its model', async () => {
    server = await startScriptedOpenAIServer({ turns: [], model: 'tiny' });
    const models = await client(server).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['tiny']);
  });

  it('streams text split into small deltas and ends with usage', async () => {
    server = await startScriptedOpenAIServer({
      turns: [{ text: 'héllo ✓ world' }],
      chunkBytes: 1,
      deltaChars: 2,
    });
    const stream = await client(server).chat.completions.create({
      model: 'm',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let finish: string | null | undefined;
    let usage = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
      finish ??= chunk.choices[0]?.finish_reason;
      usage = chunk.usage?.total_tokens ?? usage;
    }
    expect(deltas.join('')).toBe('héllo ✓ world');
    expect(deltas.length).toBeGreaterThan(5);
    expect(finish).toBe('stop');
    expect(usage).toBe(15);
  });

  it('answers a status fault with Retry-After and says when the script ran out', async () => {
    server = await startScriptedOpenAIServer({ turns: [{ status: 429, retryAfter: '7' }] });
    const first = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      body: '{"stream":true}',
    });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    const second = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      body: '{}',
    });
    expect(second.status).toBe(400);
    expect(await second.text()).toContain('no turn left for request 1');
  });

  it('cuts the socket mid-stream when told to', async () => {
    server = await startScriptedOpenAIServer({
      turns: [{ text: 'abcdefghijkl', cutAfterEvents: 3 }],
    });
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      body: '{"stream":true}',
    });
    await expect(response.text()).rejects.toThrow();
  });
});
