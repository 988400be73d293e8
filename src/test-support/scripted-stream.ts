// The streamed side of the scripted server: a turn as SSE events (text in small deltas, tool
// calls split into pieces), written in small socket writes, cut, trickled, or held quiet.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ScriptedTurn } from './scripted-openai-server';

export function toolCallsOf(turn: ScriptedTurn, index: number) {
  return (turn.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${index}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

export function usageOf(turn: ScriptedTurn) {
  const usage = turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

/** The SSE events of one turn: text in small deltas, then each tool call split into pieces. */
function streamEvents(
  id: string,
  model: string,
  turn: ScriptedTurn,
  deltaChars: number,
): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(turn.text ?? '', deltaChars)) events.push(chunk({ content: piece }));
  const calls = toolCallsOf(turn, 0);
  calls.forEach((call, index) => {
    // The id comes first on its own, the name split in two, then arguments in small fragments.
    const half = Math.ceil(call.name.length / 2);
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.name.slice(0, half), arguments: '' },
          },
        ],
      }),
    );
    events.push(chunk({ tool_calls: [{ index, function: { name: call.name.slice(half) } }] }));
    for (const piece of pieces(call.arguments, deltaChars)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, calls.length ? 'tool_calls' : 'stop'));
  events.push({
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [],
    usage: usageOf(turn),
  });
  return events;
}

export async function streamTurn(
  res: ServerResponse,
  id: string,
  model: string,
  turn: ScriptedTurn,
  chunkBytes: number,
  deltaChars: number,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const events = turn.sse ?? streamEvents(id, model, turn, deltaChars);
  const limit = turn.cutAfterEvents ?? turn.endAfterEvents;
  const played = limit === undefined ? events : events.slice(0, limit);
  const wires = played.map((event) =>
    typeof event === 'string' ? event : `data: ${JSON.stringify(event)}\n\n`,
  );
  if (limit === undefined && !turn.sse) wires.push('data: [DONE]\n\n');
  if (turn.eventDelayMs !== undefined) {
    for (const wire of wires) {
      await sleepUnlessClosed(turn.eventDelayMs, res.req);
      if (res.destroyed) return;
      res.write(wire);
    }
  } else {
    const bytes = Buffer.from(wires.join(''), 'utf8');
    for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
      if (res.destroyed) return;
      res.write(bytes.subarray(offset, offset + chunkBytes));
      // Yield so the pieces leave as separate TCP writes rather than one coalesced buffer.
      if ((offset / chunkBytes) % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (turn.cutAfterEvents !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    res.socket?.destroy();
    return;
  }
  res.end();
}

/** Holds the request open until the client gives up (no timer of ours ends it). */
export async function playQuiet(
  quiet: NonNullable<ScriptedTurn['quiet']>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (quiet !== 'silent') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
  }
  const closed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
  if (quiet !== 'keep-alive') return closed;
  // An SSE comment is a keep-alive: bytes on the wire, but no event and no progress.
  const timer = setInterval(() => res.write(': keep-alive\n\n'), 5);
  await closed;
  clearInterval(timer);
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

export function sleepUnlessClosed(ms: number, req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      req.socket.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    req.socket.once('close', done);
  });
}
