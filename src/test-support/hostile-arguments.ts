// What a hostile model puts in its tool calls: names near and far from the real tools, strings
// with control, bidi and HTML characters, and arguments that are too deep, too big, not objects,
// not JSON; indexes and ids no provider should send.
import type { Random } from './seeded-random';

/** Tool names the model tries: the suite's tools, near misses, and names no tool has. */
export const NAMES = [
  'echo',
  'echo',
  'echo',
  'count',
  'note',
  'run',
  'fetch_page',
  'ECHO',
  'echo\u0000',
  'ec\u202eho',
  '<img src=x onerror=alert(1)>',
  '',
  '../../etc/passwd',
  'n'.repeat(300),
];

export const STRINGS = [
  'plain text',
  '',
  'ctrl \u0000\u0001\u0007\u001b[2J\u001b]0;pwned\u0007 end',
  'bidi \u202e\u2066evil\u2069\u202c \u200f',
  '<script>alert(1)</script><img src=x onerror=alert(2)>',
  '"quotes" and \\backslashes\\ and \n newlines \r\n',
  'emoji 🎉👩‍💻 and a lone surrogate \ud800 here',
  '${HOME} $(rm -rf /) `id`',
  'x'.repeat(5_000),
];

export interface CallSpec {
  index?: unknown;
  id?: unknown;
  name: string;
  args: string;
}

export function validCalls(g: Random, n: number): CallSpec[] {
  return Array.from({ length: n }, (_, index) => {
    const name = g.pick(NAMES);
    return { index, id: `call_${g.between(0, 1e9)}`, name, args: JSON.stringify(argsFor(g, name)) };
  });
}

function argsFor(g: Random, name: string): Record<string, unknown> {
  switch (name) {
    case 'echo':
      return g.chance(0.8) ? { text: g.pick(STRINGS) } : { text: g.pick(STRINGS), extra: 1 };
    case 'count':
      return { items: Array.from({ length: g.between(0, 5) }, () => randomValue(g, 3)) };
    default:
      return { text: g.pick(STRINGS), path: g.pick(STRINGS), url: 'https://example.com/x' };
  }
}

function randomValue(g: Random, depth: number): unknown {
  const roll = g.between(0, depth > 0 ? 7 : 4);
  switch (roll) {
    case 0:
      return g.pick(STRINGS);
    case 1:
      return g.pick([0, -0, 1, -1, 1e308, 2 ** 53 + 1, 0.1]);
    case 2:
      return g.chance(0.5);
    case 3:
      return null;
    case 4:
      return g.pick(STRINGS).slice(0, 20);
    case 5:
    case 6:
      return Array.from({ length: g.between(0, 3) }, () => randomValue(g, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: g.between(0, 3) }, () => [
          g.pick(STRINGS).slice(0, 8),
          randomValue(g, depth - 1),
        ]),
      );
  }
}

export function badArguments(g: Random): string {
  const levels = g.pick([65, 100, 1_000, 5_000, 50_000]);
  switch (g.between(0, 9)) {
    case 0:
      return `{"items": ${'['.repeat(levels)}${']'.repeat(levels)}}`;
    case 1:
      return `{"text": "${'['.repeat(levels)}"}`; // Deep-looking, but a string: fine.
    case 2:
      return `{"items": "${'['.repeat(levels)}${']'.repeat(levels)}"}`; // A string coerced to deep.
    case 3:
      return g.chance(0.15)
        ? JSON.stringify({ text: 'y'.repeat(1_100_000) }) // Over the size limit.
        : JSON.stringify({ text: 'y'.repeat(g.between(10_000, 200_000)) });
    case 4:
      return '{"text": "unterminated';
    case 5:
      return g.pick(['[]', '"a string"', '42', 'null', 'true', '[{"text":"x"}]']);
    case 6:
      return g.pick(['', '   ', '{}', '{"text": null}', '{"__proto__": {"polluted": true}}']);
    case 7:
      return `{"text": ${JSON.stringify(g.pick(STRINGS))}, "text": 5}`;
    case 8:
      return `{"text": "a"}garbage after`;
    default:
      return `{"text": ${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
  }
}

export function badIndexes(g: Random, calls: CallSpec[]): CallSpec[] {
  const target = g.between(0, calls.length - 1);
  const bad = g.pick<unknown>([
    100_000_000,
    1_000_000,
    128,
    -1,
    -1e9,
    0.5,
    '0',
    '1',
    [0],
    { i: 0 },
    true,
    Number.MAX_SAFE_INTEGER,
    target + 2,
  ]);
  return calls.map((call, i) => (i === target ? { ...call, index: bad } : call));
}

export function oddIds(g: Random, calls: CallSpec[]): CallSpec[] {
  const sameId = `dup_${g.between(0, 9)}`;
  return calls.map((call) => {
    const id = g.pick<unknown>([
      undefined,
      undefined,
      '',
      sameId,
      sameId,
      'call_0',
      42,
      null,
      { id: 'x' },
      'id with spaces',
      'evil\u202eid',
      'x'.repeat(300),
    ]);
    // Without an index the assembler routes by id, so some calls drop it too.
    const index = g.chance(0.3) ? undefined : call.index;
    return { name: call.name, args: call.args, id, ...(index !== undefined ? { index } : {}) };
  });
}
