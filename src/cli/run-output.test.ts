import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import type { CliIo } from './cli-io';
import { PLAIN_STYLE } from './cli-style';
import { createEventPrinter } from './run-output';

function printer(json: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => err.push(t) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env: {},
    cwd: '/',
  };
  return {
    print: createEventPrinter(io, { json, trace: PLAIN_STYLE, answer: PLAIN_STYLE }),
    out,
    err,
  };
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('the run printer', () => {
  it('shows escape sequences and bidi overrides in a trace line as text, not acting on them', () => {
    const { print, err } = printer(false);
    print({
      type: 'tool-call-started',
      runId: 'r',
      callId: 'c',
      name: 'ev\u001b[2Jil\u202e',
      args: 'x\u0007',
      effect: 'unknown',
      at: 0,
    });
    expect(err.join('')).toBe('→ ev\\x1b[2Jil⟨U+202E⟩ x\\x07\n');
  });

  it.each([false, true])('prints deeply nested arguments without throwing (json: %s)', (json) => {
    const { print, out, err } = printer(json);
    const event = {
      type: 'tool-call-started' as const,
      runId: 'r',
      callId: 'c',
      name: 'x',
      args: nested(50_000),
      effect: 'read' as const,
      at: 0,
    };
    expect(() => print(event)).not.toThrow();
    expect((json ? out : err).join('')).toContain('nested deeper than 100 levels');
  });

  it("prints each request's tokens, cost and how full the window is, on stderr", () => {
    const { print, out, err } = printer(false);
    print({
      type: 'context-use',
      runId: 'r',
      tokens: 45_210,
      windowTokens: 128_000,
      answerTokens: 16_384,
      windowSource: 'table',
      counter: 'o200k_base',
    });
    print({
      type: 'usage',
      runId: 'r',
      usage: {
        promptTokens: 45_300,
        completionTokens: 120,
        totalTokens: 45_420,
        cachedTokens: 40_000,
      },
      costUsd: 0.0123,
    });
    expect(out).toEqual([]);
    expect(err.join('')).toBe(
      '  · 45,300 in (40,000 cached), 120 out, $0.0123; context 45,210 of 128,000 tokens (35 %)\n',
    );
  });
});
