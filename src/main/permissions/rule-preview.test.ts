import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import type { SandboxState } from '../../shared/tool-types';
import { eventsFromTranscript, listApprovals } from './approval-audit';
import { exactRule, widenedRule } from './permission-rule';
import { realPolicyDeps } from './real-policy-deps';
import { earlierCallsFromEvents, loadProjectEvents, previewRule } from './rule-preview';

const SANDBOX: SandboxState = { kind: 'bwrap', available: true, description: 'bwrap' };

function asked(n: number, name: string, command?: string): RunEvent {
  return {
    type: 'approval-requested',
    runId: 'r',
    requestId: `q${n}`,
    callId: `c${n}`,
    name,
    args: command ? { command } : { path: 'x' },
    argsHash: `h${n}`,
    effect: command ? 'exec' : 'write',
    preview: command
      ? { kind: 'command', command, cwd: '/p', parts: [], sandbox: SANDBOX }
      : { kind: 'text', text: 'x' },
    reasons: ['r'],
    at: 100 + n,
  };
}

function resolved(n: number, kind: 'allow-once' | 'deny'): RunEvent {
  return {
    type: 'approval-resolved',
    runId: 'r',
    requestId: `q${n}`,
    callId: `c${n}`,
    answer: { kind },
    by: 'person',
    at: 200 + n,
  };
}

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'tandem-preview-')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('listApprovals', () => {
  it('pairs requests with their answers in order, ignoring duplicates and orphans', () => {
    const events: RunEvent[] = [
      asked(1, 'shell', 'npm test'),
      asked(2, 'write_file'),
      resolved(2, 'deny'),
      resolved(1, 'allow-once'),
      resolved(1, 'deny'),
      resolved(9, 'allow-once'),
      asked(3, 'shell', 'make'),
    ];
    expect(
      listApprovals(events).map((a) => [a.requestId, a.name, a.answer?.kind ?? null, a.resolvedAt]),
    ).toEqual([
      ['q1', 'shell', 'allow-once', 201],
      ['q2', 'write_file', 'deny', 202],
      ['q3', 'shell', null, null],
    ]);
  });

  it('reads events back from a transcript, skipping a torn last line', () => {
    const lines = [
      JSON.stringify({ kind: 'meta', at: 1, sessionId: 's' }),
      JSON.stringify({ kind: 'event', at: 2, event: asked(1, 'shell', 'npm test') }),
      JSON.stringify({ kind: 'message', at: 3, message: { role: 'user', content: 'hi' } }),
      JSON.stringify({ kind: 'event', at: 4, event: resolved(1, 'allow-once') }),
      '{"kind":"event","at":5,"ev',
    ];
    expect(listApprovals(eventsFromTranscript(lines.join('\n')))).toHaveLength(1);
  });

  it('skips damaged lines and events that do not fit the schema', () => {
    const lines = [
      'null',
      '[null]',
      JSON.stringify({ kind: 'event', at: 1, event: null }),
      JSON.stringify({ kind: 'event', at: 2, event: { ...asked(9, 'shell', 'ls'), name: 5 } }),
      JSON.stringify({ kind: 'event', at: 3, event: { type: 'approval-requested' } }),
      JSON.stringify({ kind: 'event', at: 4, event: asked(1, 'shell', 'npm test') }),
    ];
    const approvals = listApprovals(eventsFromTranscript(lines.join('\n')));
    expect(approvals.map((a) => a.requestId)).toEqual(['q1']);
  });
});

describe('previewRule', () => {
  it('counts earlier calls the rule would have run without asking, per sub-command', async () => {
    const events = [
      asked(1, 'shell', 'npm test'),
      asked(2, 'shell', 'npm test -- --ci'),
      asked(3, 'shell', 'npm test; rm -rf build'),
      asked(4, 'shell', 'npm install'),
      asked(5, 'write_file'),
      asked(6, 'shell', 'git status && npm test'),
    ];
    const preview = await previewRule(
      widenedRule(['npm', 'test']),
      earlierCallsFromEvents(events),
      dir,
      realPolicyDeps,
      2,
    );
    expect(preview.matched).toBe(3);
    expect(preview.examples).toEqual(['npm test', 'npm test -- --ci']);
    expect(preview.summary).toBe(
      '`npm test *` (`npm test` with any further words for the script; options before `--` still ask) would have run 3 earlier calls without asking, e.g. `npm test`, `npm test -- --ci`',
    );
    // The exact rule: `npm test -- --ci` would still have asked.
    const exact = await previewRule(
      exactRule(['npm', 'test']),
      earlierCallsFromEvents(events),
      dir,
      realPolicyDeps,
    );
    expect(exact.examples).toEqual(['npm test', 'git status && npm test']);
    expect(exact.summary).toMatch(/^`npm test` exactly would have run 2 earlier calls/);

    const tool = await previewRule(
      { kind: 'tool', tool: 'write_file' },
      earlierCallsFromEvents(events),
      dir,
      realPolicyDeps,
    );
    expect(tool.summary).toBe(
      'tool `write_file` would have run 1 earlier call without asking, e.g. `write_file`',
    );
    const none = await previewRule(
      widenedRule(['cargo', 'build']),
      earlierCallsFromEvents(events),
      dir,
      realPolicyDeps,
    );
    expect(none.matched).toBe(0);
  });

  it("loads this project's earlier calls from its transcripts", async () => {
    const sessions = join(dir, 'sessions');
    await mkdir(sessions, { recursive: true });
    const line = (e: RunEvent): string => JSON.stringify({ kind: 'event', at: 1, event: e });
    await writeFile(
      join(sessions, 'a.jsonl'),
      [asked(1, 'shell', 'npm test'), asked(2, 'shell', 'make')].map(line).join('\n') + '\n',
    );
    await writeFile(join(sessions, 'b.jsonl'), line(asked(3, 'shell', 'npm test --ci')) + '\n');
    await writeFile(join(sessions, 'notes.txt'), 'not a transcript');
    const calls = earlierCallsFromEvents(await loadProjectEvents(dir));
    expect(calls.map((c) => c.command)).toEqual(['npm test', 'make', 'npm test --ci']);
    expect(await loadProjectEvents(join(dir, 'missing'))).toEqual([]);
  });
});
