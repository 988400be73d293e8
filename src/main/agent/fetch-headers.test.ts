// FetchHeaders follows fetch's Headers (the openai SDK builds every request's headers with it in
// the build): checked against Node's own Headers on the same operations, and on what each refuses.
import { describe, expect, it } from 'vitest';
import { FetchHeaders } from './fetch-headers';

type Step = readonly ['append' | 'set', string, string] | readonly ['delete', string];

const SCRIPTS: readonly { name: string; steps: readonly Step[] }[] = [
  {
    name: 'names compare without case',
    steps: [
      ['set', 'Content-Type', 'a'],
      ['set', 'content-type', 'b'],
    ],
  },
  {
    name: 'repeated names join',
    steps: [
      ['append', 'Accept', 'a'],
      ['append', 'ACCEPT', 'b'],
    ],
  },
  {
    name: 'set replaces all',
    steps: [
      ['append', 'x-a', '1'],
      ['append', 'x-a', '2'],
      ['set', 'X-A', '3'],
    ],
  },
  {
    name: 'delete',
    steps: [
      ['set', 'x-a', '1'],
      ['set', 'x-b', '2'],
      ['delete', 'X-A'],
    ],
  },
  {
    name: 'values lose outer whitespace',
    steps: [
      ['set', 'x-a', ' \t v w \r\n'],
      ['append', 'x-b', ''],
    ],
  },
  {
    name: 'iteration in name order',
    steps: [
      ['set', 'zeta', '1'],
      ['set', 'Alpha', '2'],
      ['set', 'mid', '3'],
    ],
  },
  {
    name: 'set-cookie stays a list',
    steps: [
      ['append', 'Set-Cookie', 'a=1'],
      ['append', 'set-cookie', 'b=2'],
      ['set', 'x', 'y'],
    ],
  },
];

function play(target: Headers, steps: readonly Step[]): Headers {
  for (const step of steps) {
    if (step[0] === 'delete') target.delete(step[1]);
    else target[step[0]](step[1], step[2]);
  }
  return target;
}

function observe(headers: Headers): unknown {
  const seen: [string, string][] = [];
  headers.forEach((value, name) => seen.push([name, value]));
  return {
    entries: [...headers],
    keys: [...headers.keys()],
    values: [...headers.values()],
    seen,
    cookies: headers.getSetCookie(),
    get: ['content-type', 'accept', 'x-a', 'x-b', 'set-cookie', 'absent'].map((n) =>
      headers.get(n),
    ),
    has: ['X-A', 'absent'].map((n) => headers.has(n)),
  };
}

describe('FetchHeaders', () => {
  it.each(SCRIPTS)('matches fetch: $name', ({ steps }) => {
    expect(observe(play(new FetchHeaders(), steps))).toEqual(observe(play(new Headers(), steps)));
  });

  it('takes a record, pairs, or another Headers (fetch or its own)', () => {
    const record = { Accept: 'a', 'x-list': ['1', '2'], 'x-gone': undefined };
    expect([...new FetchHeaders(record)]).toEqual([
      ['accept', 'a'],
      ['x-list', '1, 2'],
    ]);
    const pairs = [
      ['B', '2'],
      ['a', '1'],
    ];
    expect([...new FetchHeaders(pairs)]).toEqual([...new Headers(pairs)]);
    const real = new Headers({ Authorization: 'Bearer k', Accept: 'x' });
    expect([...new FetchHeaders(real)]).toEqual([...real]);
    expect([...new FetchHeaders(new FetchHeaders(record))]).toEqual([...new FetchHeaders(record)]);
    expect([...new FetchHeaders(null)]).toEqual([]);
  });

  it.each([
    ['a name with a space', () => new FetchHeaders().set('bad name', 'v')],
    ['an empty name', () => new FetchHeaders().append('', 'v')],
    ['a name with a colon', () => new FetchHeaders({ 'x:y': 'v' })],
    [
      'a value with CR LF (header injection)',
      () => new FetchHeaders().set('x', 'a\r\nInjected: 1'),
    ],
    ['a value with LF', () => new FetchHeaders().append('x', 'a\nb')],
    ['a value with NUL', () => new FetchHeaders().set('x', 'a\0b')],
    ['a pair of three', () => new FetchHeaders([['a', 'b', 'c']])],
    ['a lookup by an invalid name', () => new FetchHeaders().get('a b')],
  ])('refuses %s with a TypeError, as fetch does', (_name, act) => {
    expect(act).toThrow(TypeError);
  });
});
