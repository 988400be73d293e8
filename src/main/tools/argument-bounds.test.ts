import { Type } from '@sinclair/typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH, textNestingDepth } from './argument-bounds';
import { createToolRegistry, loadArgumentValidator } from './registry';
import { defineTool } from './tool';

describe('textNestingDepth', () => {
  it.each([
    ['flat', '{"a": 1}', 1],
    ['brackets inside strings do not count', '{"a": "[[[[{{{{"}', 1],
    ['escaped quotes stay inside the string', '{"a": "\\"[[[["}', 1],
    ['arrays in objects', '{"a": [[{"b": []}]]}', 5],
    ['invalid JSON is still measured', '[[[[', 4],
    ['stops counting past the limit', '['.repeat(100_000), MAX_ARGUMENT_DEPTH + 1],
  ])('%s', (_name, text, depth) => {
    expect(textNestingDepth(text)).toBe(depth);
  });
});

const tool = defineTool({
  name: 'take',
  description: '',
  parameters: Type.Object({
    list: Type.Optional(Type.Array(Type.Unknown())),
    text: Type.Optional(Type.String()),
  }),
  effect: 'read',
  execute: async () => 'ran',
});
const registry = createToolRegistry([tool]);

// ajv is loaded on first use (registry.ts); the tool-call loop awaits it as this does.
beforeAll(() => loadArgumentValidator());

const nestedText = (levels: number): string =>
  `{"list": ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

describe('the registry bounds arguments before parsing them', () => {
  it.each([
    { case: '64 levels pass', raw: nestedText(64), ok: true },
    {
      case: '65 levels are refused',
      raw: nestedText(65),
      ok: false,
      message:
        /^Error: the arguments for take nest deeper than 64 levels; send flatter arguments\.$/,
    },
    {
      case: '5,000 levels are refused',
      raw: nestedText(5000),
      ok: false,
      message: /nest deeper than 64 levels/,
    },
    {
      case: 'a string coerced into a deep array is refused too',
      raw: JSON.stringify({ list: '['.repeat(500) + ']'.repeat(500) }),
      ok: false,
      message: /nest deeper than 64 levels/,
    },
    {
      case: 'over the byte limit',
      raw: JSON.stringify({ text: 'é'.repeat(MAX_ARGUMENT_BYTES / 2) }),
      ok: false,
      message:
        /^Error: the arguments for take are 1,048,587 bytes; the limit is 1,048,576\. Send less at once/,
    },
    {
      case: 'just under the byte limit',
      raw: JSON.stringify({ text: 'x'.repeat(MAX_ARGUMENT_BYTES - 20) }),
      ok: true,
    },
    {
      case: 'an unknown tool with deep arguments',
      raw: nestedText(5000),
      name: 'n'.repeat(10_000),
      ok: false,
      message: /^Error: the arguments for "n{100}…" nest deeper than 64 levels/,
    },
  ])('$case', ({ raw, ok, message, name }) => {
    const prepared = registry.prepare(name ?? 'take', raw);
    expect(prepared.ok).toBe(ok);
    if (prepared.ok || !message) return;
    expect(prepared.message).toMatch(message);
    // What the trace and transcript get is a short string, never the deep value.
    expect(typeof prepared.args).toBe('string');
    expect((prepared.args as string).length).toBeLessThan(300);
  });

  it('an unknown tool name is cut short in the message', () => {
    const prepared = registry.prepare('x'.repeat(1_000_000), '{}');
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.message.length).toBeLessThan(300);
  });
});
