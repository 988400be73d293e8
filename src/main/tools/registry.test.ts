import { Type } from '@sinclair/typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, loadArgumentValidator } from './registry';
import { defineTool, ToolError, type ToolContext } from './tool';

const params = Type.Object({
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  ratio: Type.Optional(Type.Number()),
  flag: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String()),
  mode: Type.Optional(Type.Union([Type.Literal('fast'), Type.Literal('slow')])),
  level: Type.Optional(Type.Unsafe<number>({ enum: [1, 2, 3] })),
  nested: Type.Optional(
    Type.Object({ depth: Type.Integer(), deep: Type.Optional(Type.Boolean()) }),
  ),
  list: Type.Optional(Type.Array(Type.Integer())),
  maybe: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  path: Type.String(),
});

const probe = defineTool({
  name: 'probe',
  description: 'echoes its arguments',
  parameters: params,
  effect: 'read',
  async execute(args) {
    return JSON.stringify(args);
  },
});

const registry = createToolRegistry([probe]);

// ajv is loaded on first use (registry.ts); the tool-call loop awaits it as this does.
beforeAll(() => loadArgumentValidator());

describe('argument coercion then validation', () => {
  const cases: {
    name: string;
    args: Record<string, unknown>;
    expected?: Record<string, unknown>;
    error?: RegExp;
  }[] = [
    {
      name: 'integer from string',
      args: { path: 'a', count: '5' },
      expected: { path: 'a', count: 5 },
    },
    {
      name: 'negative number with spaces',
      args: { path: 'a', ratio: ' -2.5 ' },
      expected: { path: 'a', ratio: -2.5 },
    },
    {
      name: 'boolean true',
      args: { path: 'a', flag: 'true' },
      expected: { path: 'a', flag: true },
    },
    {
      name: 'boolean false',
      args: { path: 'a', flag: 'false' },
      expected: { path: 'a', flag: false },
    },
    {
      name: 'string stays string',
      args: { path: '5', name: '123' },
      expected: { path: '5', name: '123' },
    },
    {
      name: 'nested object fields',
      args: { path: 'a', nested: { depth: '3', deep: 'true' } },
      expected: { path: 'a', nested: { depth: 3, deep: true } },
    },
    {
      name: 'nested object sent as JSON text',
      args: { path: 'a', nested: '{"depth":"2"}' },
      expected: { path: 'a', nested: { depth: 2 } },
    },
    {
      name: 'array items',
      args: { path: 'a', list: ['1', '2', 3] },
      expected: { path: 'a', list: [1, 2, 3] },
    },
    {
      name: 'array sent as JSON text',
      args: { path: 'a', list: '[4,"5"]' },
      expected: { path: 'a', list: [4, 5] },
    },
    {
      name: 'untyped numeric enum',
      args: { path: 'a', level: '2' },
      expected: { path: 'a', level: 2 },
    },
    {
      name: 'integer-or-null union',
      args: { path: 'a', maybe: '7' },
      expected: { path: 'a', maybe: 7 },
    },
    {
      name: 'empty string never becomes 0',
      args: { path: 'a', count: '' },
      error: /count: expected integer, got string ""/,
    },
    {
      name: 'fraction is not an integer',
      args: { path: 'a', count: '2.5' },
      error: /count: expected integer, got string "2.5"/,
    },
    {
      name: 'yes is not a boolean',
      args: { path: 'a', flag: 'yes' },
      error: /flag: expected boolean, got string "yes"/,
    },
    {
      name: 'enum outside the choices',
      args: { path: 'a', mode: 'medium' },
      error: /mode: .*got string "medium"/,
    },
    {
      name: 'minimum',
      args: { path: 'a', count: '0' },
      error: /count: expected a number >= 1, got number 0/,
    },
    {
      name: 'maximum',
      args: { path: 'a', count: 11 },
      error: /count: expected a number <= 10, got number 11/,
    },
    { name: 'required', args: { count: 2 }, error: /missing required field "path"/ },
    {
      name: 'nested required',
      args: { path: 'a', nested: {} },
      error: /missing required field "nested.depth"/,
    },
    {
      name: 'array item type',
      args: { path: 'a', list: [1, 'x'] },
      error: /list\[1\]: expected integer, got string "x"/,
    },
  ];
  it.each(cases)('$name', ({ args, expected, error }) => {
    const prepared = registry.prepare('probe', JSON.stringify(args));
    if (expected) {
      expect(prepared).toMatchObject({ ok: true });
      expect(prepared.args).toEqual(expected);
    } else {
      expect(prepared.ok).toBe(false);
      if (!prepared.ok) expect(prepared.message).toMatch(error as RegExp);
    }
  });

  it('lists every problem at once', () => {
    const prepared = registry.prepare('probe', JSON.stringify({ count: 'x', flag: 3 }));
    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    expect(prepared.message).toContain('missing required field "path"');
    expect(prepared.message).toContain('count: expected integer');
    expect(prepared.message).toContain('flag: expected boolean, got number 3');
  });
});

describe('lookup and parse failures', () => {
  it.each([
    { raw: '{"path": "a"', name: 'probe', error: /not valid JSON.*Received: \{"path": "a"/s },
    { raw: '[1,2]', name: 'probe', error: /must be a JSON object, got an array/ },
    { raw: '"text"', name: 'probe', error: /must be a JSON object, got a string/ },
    { raw: '{}', name: 'nope', error: /no tool named "nope"\. Available tools: probe\./ },
  ])('$raw to $name', ({ raw, name, error }) => {
    const prepared = registry.prepare(name, raw);
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.message).toMatch(error);
  });

  it('treats empty arguments as an empty object', () => {
    const r = createToolRegistry([
      defineTool({
        name: 'none',
        description: '',
        parameters: Type.Object({}),
        effect: 'read',
        execute: async () => 'ok',
      }),
    ]);
    expect(r.prepare('none', '')).toMatchObject({ ok: true, args: {} });
  });

  it('offers plain JSON Schema definitions to the model', () => {
    const [definition] = registry.definitions();
    expect(definition?.function.name).toBe('probe');
    expect(Object.getOwnPropertySymbols(definition?.function.parameters ?? {})).toEqual([]);
    expect(definition?.function.parameters).toMatchObject({ type: 'object', required: ['path'] });
  });

  it('validates a plain JSON Schema tool (as MCP tools arrive)', () => {
    const r = createToolRegistry([
      defineTool({
        name: 'mcp__x__search',
        description: '',
        parameters: Type.Unsafe({
          type: 'object',
          properties: { limit: { type: 'integer', title: 'Limit' } },
          required: ['limit'],
        }),
        effect: 'read',
        execute: async () => 'ok',
      }),
    ]);
    expect(r.prepare('mcp__x__search', '{"limit":"3"}')).toMatchObject({
      ok: true,
      args: { limit: 3 },
    });
  });
});

describe('execution', () => {
  const ctx = (signal = new AbortController().signal): ToolContext => ({
    folder: '/tmp',
    sessionId: 's',
    callId: 'c',
    signal,
    onOutput: () => {},
    services: {},
  });
  const tool = (
    execute: (signal: AbortSignal) => Promise<string | { output: string; isError?: boolean }>,
    timeoutMs?: number,
  ) =>
    defineTool({
      name: 't',
      description: '',
      parameters: Type.Object({}),
      effect: 'read',
      ...(timeoutMs ? { timeoutMs } : {}),
      execute: (_a, c) => execute(c.signal),
    });

  it('reports a ToolError plainly and other errors with the tool name', async () => {
    const r = createToolRegistry();
    const plain = await r.execute(
      tool(async () => {
        throw new ToolError('old_text occurs 3 times');
      }),
      {},
      ctx(),
    );
    expect(plain).toEqual({
      ok: false,
      outcome: 'threw',
      output: 'Error: old_text occurs 3 times',
    });
    const other = await r.execute(
      tool(async () => {
        throw new TypeError('x is undefined');
      }),
      {},
      ctx(),
    );
    expect(other.output).toBe('Error: t failed: x is undefined');
  });

  it('passes isError through', async () => {
    const result = await createToolRegistry().execute(
      tool(async () => ({ output: 'exit 1', isError: true })),
      {},
      ctx(),
    );
    expect(result).toMatchObject({ ok: false, output: 'exit 1' });
  });

  it('stops a tool at its timeout even when it ignores the signal', async () => {
    let sawAbort = false;
    const slow = tool(
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => (sawAbort = true));
          setTimeout(() => resolve('late'), 5_000);
        }),
      30,
    );
    const result = await createToolRegistry().execute(slow, {}, ctx());
    expect(result.outcome).toBe('timeout');
    expect(result.output).toMatch(/^Error: t timed out after 30 ms and was stopped/);
    expect(sawAbort).toBe(true);
  });

  it('answers "cancelled by the user" when the run is stopped', async () => {
    const controller = new AbortController();
    const hanging = tool(
      (signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const pending = createToolRegistry().execute(hanging, {}, ctx(controller.signal));
    controller.abort();
    expect(await pending).toEqual({
      ok: false,
      outcome: 'cancelled',
      output: 'cancelled by the user',
    });
  });

  it('bounds long output, keeping head and tail', async () => {
    const text = 'H'.repeat(1000) + 'M'.repeat(5000) + 'T'.repeat(1000);
    const result = await createToolRegistry([], { maxOutputChars: 2000 }).execute(
      tool(async () => text),
      {},
      ctx(),
    );
    expect(result.output.startsWith('H'.repeat(1000))).toBe(true);
    expect(result.output.endsWith('T'.repeat(800))).toBe(true);
    expect(result.output).toContain('5,000 characters cut from the middle (7,000 in all)');
  });
});

describe('schemas an MCP server chooses', () => {
  const withSchema = (name: string, schema: Record<string, unknown>) =>
    defineTool({
      name,
      description: name,
      parameters: Type.Unsafe<Record<string, unknown>>(schema),
      effect: 'read',
      async execute() {
        return 'ok';
      },
    });

  it('compiles the same "$id" again and again (a server relisting its tools)', () => {
    const checks = createToolRegistry();
    const schema = { $id: 'https://example.com/s', type: 'object' };
    for (let i = 0; i < 3; i++) expect(checks.schemaProblem(withSchema('a', schema))).toBeNull();
  });

  // The meta-schema check is skipped for the built-in tools' own schemas only (registry.ts).
  it('checks an MCP schema against the meta-schema, both before it is added and at a call', () => {
    const invalid = { type: 'object', required: 'x' };
    const checks = createToolRegistry();
    expect(checks.schemaProblem(withSchema('bad', invalid))).toMatch(
      /^schema is invalid: .*required/,
    );
    const origin = {
      server: 's',
      tool: 'bad',
      trusted: true,
      sandboxed: true,
      annotations: '',
      destructive: false,
      definition: 'h',
    };
    checks.add({ ...withSchema('mcp__s__bad', invalid), mcp: origin });
    const call = checks.prepare('mcp__s__bad', '{"x":"y"}');
    expect(call.ok).toBe(false);
    if (!call.ok) expect(call.message).toMatch(/unusable parameter schema \(schema is invalid/);
  });

  it('a schema named like the meta-schema breaks no other tool', () => {
    const checks = createToolRegistry();
    const meta = { $id: 'http://json-schema.org/draft-07/schema#', type: 'object' };
    checks.schemaProblem(withSchema('meta', meta));
    expect(checks.schemaProblem(withSchema('plain', { type: 'object' }))).toBeNull();
    const later = withSchema('later', { type: 'object', properties: { x: { type: 'string' } } });
    checks.add(later);
    expect(checks.prepare('later', '{"x":"y"}').ok).toBe(true);
  });
});
