// A hostile model, generated from a seed: streamed turns that break the protocol in the ways real
// providers and adversarial models do (indexes huge, negative, gapped or not numbers; ids missing,
// repeated or strange; chunks without choices; invalid JSON; error events; cut streams; arguments
// split anywhere, too deep, too big, not objects; control, bidi and HTML characters everywhere).
import {
  badArguments,
  badIndexes,
  oddIds,
  STRINGS,
  validCalls,
  type CallSpec,
} from './hostile-arguments';
import type { ScriptedTurn } from './scripted-openai-server';
import { pickWeighted, type Random } from './seeded-random';

export { seededRandom } from './seeded-random';

export type HostileKind =
  | 'valid-calls'
  | 'many-calls'
  | 'bad-arguments'
  | 'bad-index'
  | 'odd-ids'
  | 'no-choices'
  | 'garbage'
  | 'cut'
  | 'text'
  | 'text-and-calls';

const KINDS: readonly [HostileKind, number][] = [
  ['valid-calls', 22],
  ['many-calls', 2],
  ['bad-arguments', 16],
  ['bad-index', 9],
  ['odd-ids', 9],
  ['no-choices', 6],
  ['garbage', 7],
  ['cut', 5],
  ['text', 16],
  ['text-and-calls', 8],
];

const chunk = (delta: unknown, finish: string | null = null): object => ({
  id: 'hostile',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'hostile-model',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const DONE = 'data: [DONE]\n\n';

/** One turn of the hostile model. */
export function hostileTurn(g: Random): { kind: HostileKind; turn: ScriptedTurn } {
  const kind = pickWeighted(g, KINDS);
  const events = eventsFor(kind, g);
  // Small turns sometimes go a few bytes per write (splitting lines, JSON and UTF-8 characters),
  // the rest in pieces of about a kilobyte. (Bigger reads make the SDK's SSE decoder slow: it
  // copies the rest of its buffer for every event it finds, quadratic in the events per read.)
  const size = events.reduce<number>(
    (sum, e) => sum + (typeof e === 'string' ? e.length : JSON.stringify(e).length),
    0,
  );
  const chunkBytes = size < 20_000 && g.chance(0.2) ? g.between(1, 16) : g.between(256, 1_024);
  return { kind, turn: { sse: events, chunkBytes } };
}

function eventsFor(kind: HostileKind, g: Random): (string | object)[] {
  switch (kind) {
    case 'valid-calls':
      return callTurn(g, validCalls(g, g.between(1, 4)));
    case 'many-calls':
      // Around the limit of 128 calls, with short arguments.
      return callTurn(
        g,
        validCalls(g, g.between(100, 135)).map((call) => ({ ...call, args: '{"text":"many"}' })),
      );
    case 'bad-arguments':
      return callTurn(
        g,
        validCalls(g, g.between(1, 3)).map((call) => ({ ...call, args: badArguments(g) })),
      );
    case 'bad-index':
      return callTurn(g, badIndexes(g, validCalls(g, g.between(1, 3))));
    case 'odd-ids':
      return callTurn(g, oddIds(g, validCalls(g, g.between(1, 4))));
    case 'no-choices':
      return withoutChoices(g, g.chance(0.5) ? textTurn(g) : callTurn(g, validCalls(g, 2)));
    case 'garbage':
      return garbage(g);
    case 'cut': {
      const full = g.chance(0.5) ? textTurn(g) : callTurn(g, validCalls(g, g.between(1, 3)));
      // Ends before the finish reason: without [DONE], or cleanly with it.
      const cut = full.slice(0, g.between(0, Math.max(0, full.length - 3)));
      return g.chance(0.5) ? cut : [...cut, DONE];
    }
    case 'text':
      return textTurn(g);
    case 'text-and-calls':
      return [...textTurn(g).slice(0, -2), ...callTurn(g, validCalls(g, g.between(1, 3)))];
  }
}

/** Deltas for the calls: id and a piece of the name first, then arguments split anywhere. */
function callTurn(g: Random, calls: readonly CallSpec[]): (string | object)[] {
  const perCall = calls.map((call) => {
    const deltas: object[] = [];
    const cut = g.between(0, call.name.length);
    const head = (fn: object): object => ({
      ...(call.index !== undefined ? { index: call.index } : {}),
      ...fn,
    });
    deltas.push(
      head({
        ...(call.id !== undefined ? { id: call.id } : {}),
        type: 'function',
        function: { name: call.name.slice(0, cut), arguments: '' },
      }),
    );
    if (cut < call.name.length) deltas.push(head({ function: { name: call.name.slice(cut) } }));
    for (const piece of splitAnywhere(g, call.args)) {
      deltas.push(head({ function: { arguments: piece } }));
    }
    return deltas;
  });
  // Calls follow one another; sometimes an earlier call's pieces come late (still valid).
  const ordered = perCall.flat();
  if (g.chance(0.2) && ordered.length > 2) ordered.push(ordered.splice(1, 1)[0] as object);
  const events: (string | object)[] = [chunk({ role: 'assistant', content: null })];
  for (const delta of ordered) events.push(chunk({ tool_calls: [delta] }));
  events.push(chunk({}, g.pick(['tool_calls', 'tool_calls', 'stop', 'length', 'weird\u0000'])));
  events.push({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  events.push(DONE);
  return events;
}

function splitAnywhere(g: Random, text: string): string[] {
  if (text.length > 50_000) {
    // Big arguments in big pieces, so the suite stays quick; still cut at odd places.
    const pieces: string[] = [];
    for (let at = 0; at < text.length;) {
      const size = g.between(10_000, 300_000);
      pieces.push(text.slice(at, at + size));
      at += size;
    }
    return pieces;
  }
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = g.chance(0.3) ? 1 : g.between(1, 64);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

function textTurn(g: Random): (string | object)[] {
  const text = g.chance(0.05) ? 'z'.repeat(g.between(50_000, 300_000)) : g.pick(STRINGS);
  const events: (string | object)[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of splitAnywhere(g, text)) events.push(chunk({ content: piece }));
  events.push(chunk({}, 'stop'), DONE);
  return events;
}

function withoutChoices(g: Random, events: (string | object)[]): (string | object)[] {
  const noise = [
    { id: 'x', object: 'chat.completion.chunk' },
    { choices: [] },
    { choices: null },
    { choices: [], usage: { prompt_tokens: 'many' } },
    { choices: [{ index: 0 }] },
    { choices: [{ index: 0, delta: null }] },
    ': a comment line\n\n',
    'event: ping\ndata: {"choices":[]}\n\n',
  ];
  const out: (string | object)[] = [];
  for (const event of events) {
    if (g.chance(0.4)) out.push(g.pick(noise));
    out.push(event);
  }
  return out;
}

function garbage(g: Random): (string | object)[] {
  const start = [chunk({ role: 'assistant', content: null })];
  const bad = g.pick<string | object>([
    'data: {"choices": [oops\n\n',
    'data: null\n\n',
    'data: 42\n\n',
    'data: "a string"\n\n',
    'data: {"error": {"message": "hostile overload \\u001b[31m<b>bold</b>"}}\n\n',
    'event: error\ndata: {"error": {"message": "bad"}, "message": "bad"}\n\n',
    { choices: 'many' },
    { choices: [{ index: 0, delta: 'not an object' }] },
    chunk({ content: 42 }),
    chunk({ tool_calls: { index: 0 } }),
    chunk({ tool_calls: [null] }),
    chunk({ tool_calls: [{ index: 0, function: { name: 7, arguments: {} } }] }),
    { choices: [{ index: 0, delta: {}, finish_reason: 9 }] },
  ]);
  return [...start, bad, chunk({}, 'stop'), DONE];
}
