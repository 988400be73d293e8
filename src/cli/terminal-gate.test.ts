import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../shared/events';
import type { PermissionMode } from '../shared/tool-types';
import { testTools } from '../test-support/agent-harness';
import type { GateRequest } from '../main/permissions/gate';
import type { AnyTool } from '../main/tools/tool';
import { createTerminalGate } from './terminal-gate';

const [echo, , note, fetchPage] = testTools() as [AnyTool, AnyTool, AnyTool, AnyTool];

function request(tool: AnyTool, args: unknown, taintedBy?: string): GateRequest {
  return {
    runId: 'r',
    callId: 'c',
    tool,
    args,
    ctx: {
      folder: '/p',
      sessionId: 's',
      callId: 'c',
      signal: new AbortController().signal,
      onOutput: () => {},
      services: {},
    },
    ...(taintedBy ? { taintedBy } : {}),
  };
}

function scriptedTerminal(replies: string[]) {
  const questions: string[] = [];
  return {
    questions,
    ask: async (question: string) => {
      questions.push(question);
      return replies.shift();
    },
  };
}

describe('terminal gate', () => {
  it.each<{
    mode: PermissionMode;
    tool: AnyTool;
    tainted?: string;
    expected: 'run' | 'refuse' | 'ask';
  }>([
    { mode: 'ask', tool: echo, expected: 'run' },
    { mode: 'read-only', tool: echo, expected: 'run' },
    { mode: 'ask', tool: note, expected: 'ask' },
    { mode: 'auto-edit', tool: note, expected: 'run' },
    { mode: 'auto-edit', tool: note, tainted: 'after reading https://x', expected: 'ask' },
    { mode: 'auto-edit', tool: fetchPage, expected: 'ask' },
    { mode: 'read-only', tool: note, expected: 'refuse' },
    { mode: 'autonomous', tool: fetchPage, expected: 'run' },
  ])(
    '$mode mode, $tool.name (tainted: $tainted) → $expected',
    async ({ mode, tool, tainted, expected }) => {
      const terminal = scriptedTerminal(['n']);
      const gate = createTerminalGate({ mode, ask: terminal.ask, warn: () => {} });
      const verdict = await gate(
        request(tool, { text: 'x', url: 'https://x' }, tainted),
        () => {},
        new AbortController().signal,
      );
      if (expected === 'ask') {
        expect(terminal.questions).toHaveLength(1);
        expect(verdict.kind).toBe('refuse');
      } else {
        expect(terminal.questions).toHaveLength(0);
        expect(verdict.kind).toBe(expected);
      }
    },
  );

  it('y allows once, a allows the tool for the session, n declines', async () => {
    const terminal = scriptedTerminal(['y', 'a', 'nope']);
    const events: RunEvent[] = [];
    const gate = createTerminalGate({ mode: 'ask', ask: terminal.ask, warn: () => {} });
    const signal = new AbortController().signal;
    const once = await gate(request(note, { text: '1' }), (e) => events.push(e), signal);
    expect(once.kind).toBe('run');
    expect(terminal.questions[0]).toContain('note (write) wants to run:');
    expect(terminal.questions[0]).toContain('"text": "1"');
    expect((await gate(request(note, { text: '2' }), (e) => events.push(e), signal)).kind).toBe(
      'run',
    );
    expect((await gate(request(note, { text: '3' }), (e) => events.push(e), signal)).kind).toBe(
      'run',
    );
    expect(terminal.questions).toHaveLength(2);
    const declined = await gate(
      request(fetchPage, { url: 'https://x' }),
      (e) => events.push(e),
      signal,
    );
    expect(declined).toMatchObject({
      kind: 'refuse',
      message: expect.stringMatching(/declined fetch_page/),
    });
    const resolved = events.filter((e) => e.type === 'approval-resolved');
    expect(
      resolved.map((e) => (e.type === 'approval-resolved' ? [e.answer.kind, e.by] : [])),
    ).toEqual([
      ['allow-once', 'person'],
      ['allow-session', 'person'],
      ['deny', 'person'],
    ]);
  });

  it('a stop while asking refuses as cancelled', async () => {
    const controller = new AbortController();
    const gate = createTerminalGate({
      mode: 'ask',
      warn: () => {},
      ask: (_q, signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined))),
    });
    const pending = gate(request(note, { text: 'x' }), () => {}, controller.signal);
    controller.abort();
    expect(await pending).toEqual({ kind: 'refuse', message: 'cancelled by the user' });
  });
});
