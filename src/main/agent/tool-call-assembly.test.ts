import { describe, expect, it } from 'vitest';
import { ProtocolFault } from './stream-chunk';
import {
  MAX_TOOL_CALLS_PER_TURN,
  ToolCallAssembler,
  type ToolCallDelta,
} from './tool-call-assembly';

function assemble(deltas: readonly ToolCallDelta[]) {
  const assembler = new ToolCallAssembler();
  for (const delta of deltas) assembler.add(delta);
  return assembler.finish('t');
}

const fn = (name?: string, args?: string) => ({
  function: {
    ...(name !== undefined ? { name } : {}),
    ...(args !== undefined ? { arguments: args } : {}),
  },
});

describe('ToolCallAssembler: well-formed streams', () => {
  it.each<[string, ToolCallDelta[], [string, string, string][]]>([
    [
      'indexed pieces',
      [
        { index: 0, id: 'a', ...fn('ec', '') },
        { index: 0, ...fn('ho', '{"te') },
        { index: 1, id: 'b', ...fn('note', '{}') },
        { index: 0, ...fn(undefined, 'xt":1}') },
      ],
      [
        ['a', 'echo', '{"text":1}'],
        ['b', 'note', '{}'],
      ],
    ],
    [
      'no index: ids route the pieces',
      [
        { id: 'a', ...fn('echo', '{"x"') },
        { id: 'b', ...fn('note', '{') },
        { id: 'a', ...fn(undefined, ':1}') },
        { ...fn(undefined, '}') },
      ],
      [
        ['a', 'echo', '{"x":1}'],
        ['b', 'note', '{}'],
      ],
    ],
    [
      'a repeated whole name is not doubled',
      [
        { index: 0, id: 'a', ...fn('echo', '{') },
        { index: 0, ...fn('echo', '}') },
      ],
      [['a', 'echo', '{}']],
    ],
    [
      'a null index is read as no index',
      [{ index: null, id: 'a', ...fn('echo', '{}') }],
      [['a', 'echo', '{}']],
    ],
    [
      'missing, empty, non-string and unprintable ids get our own',
      [
        { index: 0, ...fn('a', '{}') },
        { index: 1, id: '', ...fn('b', '{}') },
        { index: 2, id: 42, ...fn('c', '{}') },
        { index: 3, id: 'evil\u202eid', ...fn('d', '{}') },
        { index: 4, id: 'x'.repeat(257), ...fn('e', '{}') },
      ],
      [
        ['call_t_0', 'a', '{}'],
        ['call_t_1', 'b', '{}'],
        ['call_t_2', 'c', '{}'],
        ['call_t_3', 'd', '{}'],
        ['call_t_4', 'e', '{}'],
      ],
    ],
  ])('%s', (_name, deltas, expected) => {
    expect(assemble(deltas).map((c) => [c.id, c.function.name, c.function.arguments])).toEqual(
      expected,
    );
  });

  it(`takes ${MAX_TOOL_CALLS_PER_TURN} calls`, () => {
    const deltas = Array.from({ length: MAX_TOOL_CALLS_PER_TURN }, (_, index) => ({
      index,
      ...fn('echo', '{}'),
    }));
    expect(assemble(deltas)).toHaveLength(MAX_TOOL_CALLS_PER_TURN);
  });
});

describe('ToolCallAssembler: an index the provider should not send is a protocol error', () => {
  it.each<[string, ToolCallDelta[], RegExp]>([
    [
      'a huge index',
      [{ index: 100_000_000, ...fn('echo') }],
      /more than 128 tool calls in one answer \(index 100000000\)/,
    ],
    ['index 128', [{ index: 128, ...fn('echo') }], /more than 128 tool calls/],
    [
      'a negative index',
      [{ index: -1, ...fn('echo') }],
      /index -1; an index must be a whole number from 0/,
    ],
    [
      'a fractional index',
      [{ index: 0.5, ...fn('echo') }],
      /index 0.5; an index must be a whole number/,
    ],
    [
      'a string index',
      [{ index: '0', ...fn('echo') }],
      /index "0"; an index must be a whole number/,
    ],
    ['an array index', [{ index: [[[0]]], ...fn('echo') }], /index an array;/],
    ['NaN', [{ index: Number.NaN, ...fn('echo') }], /index NaN;/],
    [
      'a gap',
      [
        { index: 0, ...fn('echo') },
        { index: 2, ...fn('echo') },
      ],
      /index 2 when the next call is 1; indexes must count 0, 1, 2, … without gaps/,
    ],
    ['a first index of 1', [{ index: 1, ...fn('echo') }], /index 1 when the next call is 0/],
    [
      'a 129th call without index',
      Array.from({ length: 129 }, (_, i) => ({ id: `id${i}`, ...fn('echo') })),
      /more than 128 tool calls/,
    ],
  ])('%s', (_name, deltas, message) => {
    const assembler = new ToolCallAssembler();
    let thrown: unknown;
    try {
      for (const delta of deltas) assembler.add(delta);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProtocolFault);
    expect((thrown as Error).message).toMatch(message);
    // Nothing was allocated by the provider's number.
    expect(assembler.size).toBeLessThanOrEqual(MAX_TOOL_CALLS_PER_TURN);
  });
});
