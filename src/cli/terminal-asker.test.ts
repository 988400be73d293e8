import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../shared/events';
import type { SandboxState } from '../shared/tool-types';
import { listApprovals } from '../main/permissions/approval-audit';
import { ApprovalBroker } from '../main/permissions/approval-broker';
import { createPermissionGate } from '../main/permissions/create-permission-gate';
import type { GateVerdict, PermissionGate } from '../main/permissions/gate';
import { GrantBook } from '../main/permissions/grant-book';
import { previewAlwaysChoices } from '../main/permissions/always-rule-preview';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { realPolicyDeps } from '../main/permissions/real-policy-deps';
import { createShellTool } from '../main/tools/shell-tool';
import { createTerminalAsker, parseTerminalAnswer } from './terminal-asker';

const SANDBOXED: SandboxState = { kind: 'bwrap', available: true, description: 'bubblewrap' };
const shell = createShellTool({ probe: async () => SANDBOXED });

let root: string;
let input: PassThrough;
let output: string;
let events: RunEvent[];

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-term-')));
  input = new PassThrough();
  output = '';
  events = [];
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function gateWith(interactive: boolean): PermissionGate {
  return createPermissionGate({
    store: new JsonFilePermissionsStore(join(root, 'data')),
    grants: new GrantBook(),
    broker: new ApprovalBroker(),
    asker: createTerminalAsker({
      input,
      interactive,
      write: (t) => (output += t),
      // The engine's choices for "always", over no earlier calls.
      previewAlways: async (_request, context) =>
        previewAlwaysChoices(context.rules, [], root, realPolicyDeps),
    }),
    sandbox: SANDBOXED,
  });
}

async function storedRules(): Promise<unknown[]> {
  const stored = await new JsonFilePermissionsStore(join(root, 'data')).load(root);
  return stored.rules.map((r) => r.rule);
}

let n = 0;
function call(
  gate: PermissionGate,
  command: string,
  signal = new AbortController().signal,
): Promise<GateVerdict> {
  const callId = `c${++n}`;
  return gate(
    {
      runId: 'r',
      callId,
      tool: shell,
      args: { command },
      ctx: { folder: root, sessionId: 's', callId, signal, onOutput: () => {}, services: {} },
    },
    (e) => events.push(e),
    signal,
  );
}

describe('terminal asker', () => {
  it.each([
    { line: 'y', kind: 'allow-once' },
    { line: ' s ', kind: 'allow-session' },
    { line: 'a', kind: 'allow-always' },
    { line: 't', kind: 'allow-for' },
    { line: 'N', kind: 'deny' },
    { line: 'use make instead', kind: 'deny-with-note' },
    { line: '', kind: null },
  ])('"$line" → $kind', ({ line, kind }) => {
    expect(parseTerminalAnswer(line)?.kind ?? null).toBe(kind);
  });

  it('answers requests in order, one line each, showing the command and why', async () => {
    const gate = gateWith(true);
    const first = call(gate, 'npm test');
    // Each gate classifies its command before its card joins the queue: the second call starts
    // once the first card is up, so the queue's order is the calls' order on any machine.
    await expect.poll(() => output).toContain('$ npm test');
    const second = call(gate, 'make build');
    input.write('\n'); // empty: asked again
    input.write('y\n');
    input.write('please run the tests first\n');
    expect(await first).toMatchObject({
      kind: 'run',
      provenance: expect.stringMatching(/^you allowed it at \d\d:\d\d$/),
    });
    expect(await second).toEqual({
      kind: 'refuse',
      message: 'The person denied this call with a note: please run the tests first',
    });
    expect(output).toContain('$ npm test');
    expect(output).toContain('not a known read-only command: npm');
    expect(output.indexOf('$ npm test')).toBeLessThan(output.indexOf('$ make build'));
    expect(listApprovals(events).map((a) => a.answer?.kind)).toEqual([
      'allow-once',
      'deny-with-note',
    ]);
  });

  it('prints no card and reads no line until beforeCard has resolved (the run header is out)', async () => {
    let headerOut: () => void = () => {};
    const header = new Promise<void>((resolve) => (headerOut = resolve));
    const asker = createTerminalAsker({
      input,
      interactive: true,
      write: (t) => (output += t),
      beforeCard: () => header,
    });
    let asked = false;
    const gate = createPermissionGate({
      store: new JsonFilePermissionsStore(join(root, 'data')),
      grants: new GrantBook(),
      broker: new ApprovalBroker(),
      asker: {
        ...asker,
        ask: (...args) => {
          asked = true;
          asker.ask(...args);
        },
      },
      sandbox: SANDBOXED,
    });
    // A line typed ahead is not read while the card is held: it is taken only once the card is on
    // screen (type-ahead answers the card it then sees, as before the header was held).
    input.write('y\n');
    let settled = false;
    const verdict = call(gate, 'npm test').finally(() => (settled = true));
    await expect.poll(() => asked).toBe(true);
    for (let i = 0; i < 20; i++) await new Promise((wake) => setImmediate(wake));
    expect(output).toBe('');
    expect(settled).toBe(false);
    headerOut();
    expect(await verdict).toMatchObject({ kind: 'run' });
    expect(output).toContain('$ npm test');
  });

  it('"s" allows exactly the same words for the rest of the session', async () => {
    const gate = gateWith(true);
    const first = call(gate, 'npm test');
    input.write('s\n');
    expect((await first).kind).toBe('run');
    expect(output).toContain('"s", "t" and "a" would allow: `npm test` exactly');
    expect(await call(gate, 'npm test')).toMatchObject({
      kind: 'run',
      provenance: expect.stringMatching(/`npm test` exactly for this session/),
    });
    const more = call(gate, 'npm test -- --ci');
    input.write('n\n');
    expect((await more).kind).toBe('refuse');
  });

  it('"a" then Enter stores the exact words: widening is never the default', async () => {
    const gate = gateWith(true);
    const first = call(gate, 'npm test -- --watch');
    input.write('a\n\n');
    expect((await first).kind).toBe('run');
    expect(output).toContain(
      'after "a" you may widen it instead, e.g. to `npm test *` (`npm test` with any further words for the script; options before `--` still ask)',
    );
    expect(output).toContain('"a" stores, for `npm test -- --watch` exactly, one of:');
    expect(output).toContain('    [1] `npm test -- --watch` exactly (Enter)');
    expect(output).toContain(
      '    [2] `npm test *` (`npm test` with any further words for the script',
    );
    expect(output).toContain('    [3] `npm test -- *` (`npm test --` with any further words)');
    expect(output).toContain('    not offered: `npm *` would cover every use of `npm`');
    expect(await storedRules()).toEqual([
      { kind: 'command', argv: ['npm', 'test', '--', '--watch'], match: 'exact' },
    ]);
  });

  it('"a" then a number stores the widened rule, which then runs more words without asking', async () => {
    const gate = gateWith(true);
    const first = call(gate, 'npm test -- --watch');
    input.write('a\n7\nwhat\n2\n');
    expect((await first).kind).toBe('run');
    // A number out of range or other text asks again.
    expect(output.match(/rule \[1-4, Enter = 1, n = deny\]> /g)).toHaveLength(3);
    expect(await storedRules()).toEqual([
      { kind: 'command', argv: ['npm', 'test'], match: 'prefix' },
    ]);
    expect(await call(gate, 'npm test -- --ci')).toMatchObject({
      kind: 'run',
      provenance: expect.stringMatching(/^this project's rule for `npm test \*`/),
    });
  });

  it('"n" at the rule prompt denies the call and stores nothing', async () => {
    const gate = gateWith(true);
    const first = call(gate, 'rm build src');
    input.write('a\nn\n');
    expect(await first).toEqual({
      kind: 'refuse',
      message: 'The person denied this call; it did not run.',
    });
    expect(await storedRules()).toEqual([]);
  });

  it('"a" for `git push` asks nothing more: no widening is offered, the exact rule is stored', async () => {
    const gate = gateWith(true);
    const first = call(gate, 'git push origin main');
    input.write('a\n');
    expect((await first).kind).toBe('run');
    expect(output).not.toContain('you may widen');
    expect(output).not.toContain('rule [');
    expect(await storedRules()).toEqual([
      { kind: 'command', argv: ['git', 'push', 'origin', 'main'], match: 'exact' },
    ]);
  });

  it('denies without a terminal, and when the input closes', async () => {
    expect(await call(gateWith(false), 'npm test')).toMatchObject({
      kind: 'refuse',
      message: expect.stringMatching(/no terminal/),
    });
    const gate = gateWith(true);
    const pending = call(gate, 'npm test');
    input.end();
    expect((await pending).kind).toBe('refuse');
    expect(listApprovals(events).map((a) => a.by)).toEqual(['no-tty', 'no-tty']);
  });

  it('stop while waiting denies the pending calls', async () => {
    const gate = gateWith(true);
    const stop = new AbortController();
    const calls = [
      call(gate, 'npm test', stop.signal),
      call(gate, 'make', stop.signal),
      call(gate, 'npm i', stop.signal),
    ];
    await new Promise<void>((resolve) => {
      const check = (): void =>
        events.filter((e) => e.type === 'approval-requested').length === 3
          ? resolve()
          : void setImmediate(check);
      check();
    });
    stop.abort();
    expect((await Promise.all(calls)).map((v) => v.kind)).toEqual(['refuse', 'refuse', 'refuse']);
    expect(listApprovals(events).map((a) => a.by)).toEqual(['stop', 'stop', 'stop']);
  });
});
