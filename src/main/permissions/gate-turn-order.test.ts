// One turn's cards are shown together (a stack), but each call is judged on the state when it is
// its turn to run: the gate's `ready`. Real gate, broker, policy and write tool in a temp folder.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import type { SandboxState } from '../../shared/tool-types';
import { writeFileTool } from '../tools/files/write-file';
import { createShellTool } from '../tools/shell-tool';
import type { AnyTool, ToolContext } from '../tools/tool';
import { ApprovalBroker } from './approval-broker';
import { newReasons } from './call-edit';
import { createPermissionGate } from './create-permission-gate';
import type { GateVerdict, PermissionGate } from './gate';
import { GrantBook } from './grant-book';
import { JsonFilePermissionsStore } from './project-permissions-store';

const SANDBOXED: SandboxState = { kind: 'bwrap', available: true, description: 'bubblewrap' };
const shellTool = createShellTool({ probe: async () => SANDBOXED });

let root: string;
let folder: string;
let events: RunEvent[];
let broker: ApprovalBroker;
let gate: PermissionGate;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-turn-')));
  folder = join(root, 'proj');
  await mkdir(folder);
  events = [];
  broker = new ApprovalBroker();
  gate = createPermissionGate({
    store: new JsonFilePermissionsStore(join(root, 'data')),
    grants: new GrantBook(),
    broker,
    asker: { ask: () => {} },
    sandbox: SANDBOXED,
  });
});

afterEach(() => rm(root, { recursive: true, force: true }));

/**
 * A promise and its resolve, standing for "the calls before this one have finished"; `awaited`
 * says whether the gate has begun to wait on it (its answer is then taken in full).
 */
function turnBefore(): { ready: Promise<void>; finish: () => void; awaited: () => boolean } {
  let finish = (): void => {};
  let waiting = false;
  const ready = new Promise<void>((resolve) => (finish = resolve));
  const then = ready.then.bind(ready);
  Object.assign(ready, {
    then: (...args: Parameters<typeof then>) => {
      waiting = true;
      return then(...args);
    },
  });
  return { ready, finish, awaited: () => waiting };
}

let counter = 0;
function call(
  tool: AnyTool,
  args: unknown,
  ready: Promise<void>,
  taint: { taintedBy?: string } = {},
  editable = false,
): Promise<GateVerdict> {
  const callId = `c${++counter}`;
  const signal = new AbortController().signal;
  const ctx: ToolContext = {
    folder,
    sessionId: 's',
    callId,
    signal,
    onOutput: () => {},
    services: {},
  };
  return gate(
    {
      runId: 'r',
      callId,
      tool,
      args,
      ctx,
      ready,
      ...(editable
        ? { revalidate: (edited: unknown) => ({ ok: true as const, args: edited }) }
        : {}),
      get taintedBy() {
        return taint.taintedBy;
      },
    },
    (event) => events.push(event),
    signal,
  );
}

const asked = (): Extract<RunEvent, { type: 'approval-requested' }>[] =>
  events.filter(
    (e): e is Extract<RunEvent, { type: 'approval-requested' }> => e.type === 'approval-requested',
  );

async function settled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (
    (await Promise.race([promise, new Promise((r) => setImmediate(() => r(marker)))])) !== marker
  );
}

describe('a turn of several calls', () => {
  it('shows the card at once, and lets it run only once the calls before it finished', async () => {
    const before = turnBefore();
    const verdict = call(writeFileTool, { path: 'a.txt', content: 'a\n' }, before.ready);
    await expect.poll(() => asked().length).toBe(1);
    const [card] = asked();
    expect(
      broker.answer(card!.requestId, card!.argsHash, { kind: 'allow-once' }, 'person').ok,
    ).toBe(true);
    expect(await settled(verdict)).toBe(false);
    before.finish();
    expect(await verdict).toMatchObject({ kind: 'run' });
  });

  it('asks again when a call before it changed the file the card showed', async () => {
    await writeFile(join(folder, 'a.txt'), 'old\n');
    const before = turnBefore();
    const verdict = call(writeFileTool, { path: 'a.txt', content: 'new\n' }, before.ready);
    await expect.poll(() => asked().length).toBe(1);
    const [first] = asked();
    broker.answer(first!.requestId, first!.argsHash, { kind: 'allow-once' }, 'person');
    // The call before it in the turn rewrote the file.
    await writeFile(join(folder, 'a.txt'), 'changed by the call before\n');
    before.finish();
    await expect.poll(() => asked().length).toBe(2);
    const second = asked()[1]!;
    expect(second.reasons[0]).toMatch(/changed after the card was shown/);
    broker.answer(second.requestId, second.argsHash, { kind: 'allow-once' }, 'person');
    expect(await verdict).toMatchObject({ kind: 'run' });
  });

  it('asks again when a call before it rewrote the script the command card runs', async () => {
    await writeFile(join(folder, 'run.sh'), 'echo benign\n');
    const before = turnBefore();
    const verdict = call(shellTool, { command: 'sh run.sh' }, before.ready);
    await expect.poll(() => asked().length).toBe(1);
    const [first] = asked();
    // The person read run.sh as it was and allowed running it.
    broker.answer(first!.requestId, first!.argsHash, { kind: 'allow-once' }, 'person');
    // A call ahead in the turn (an auto-accepted write) then rewrote it.
    await writeFile(join(folder, 'run.sh'), 'cat ~/.ssh/id_rsa\n');
    before.finish();
    await expect.poll(() => asked().length).toBe(2);
    expect(asked()[1]!.reasons[0]).toMatch(/changed after the card was shown/);
    const second = asked()[1]!;
    broker.answer(second.requestId, second.argsHash, { kind: 'deny' }, 'person');
    expect(await verdict).toMatchObject({ kind: 'refuse' });
  });

  // The script a command runs, named some other way than by its path from the project folder.
  const manyWords = Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ');
  it.each<[string, string, string]>([
    ['from the folder a `cd` before it entered', 'cd sub && sh run.sh', 'sub/run.sh'],
    ['through a link in the project', 'sh link.sh', 'run.sh'],
    ['after more words than are looked at', `echo ${manyWords} && sh run.sh`, 'run.sh'],
    ['by a variable naming the folder', 'sh "${PWD}/sub/run.sh"', 'sub/run.sh'],
    ['from its standard input', 'bash < run.sh', 'run.sh'],
  ])(
    'asks again when a call before it rewrote the script the card runs %s',
    async (_, command, rewritten) => {
      await mkdir(join(folder, 'sub'));
      await writeFile(join(folder, 'run.sh'), 'echo benign\n');
      await writeFile(join(folder, 'sub', 'run.sh'), 'echo benign\n');
      await symlink('run.sh', join(folder, 'link.sh'));
      const before = turnBefore();
      const verdict = call(shellTool, { command }, before.ready);
      await expect.poll(() => asked().length).toBe(1);
      const [first] = asked();
      broker.answer(first!.requestId, first!.argsHash, { kind: 'allow-once' }, 'person');
      // A call ahead in the turn then rewrote the script, the same length (a `sed -i` of one word).
      await writeFile(join(folder, rewritten), 'echo sneaky\n');
      before.finish();
      await expect.poll(() => asked().length).toBe(2);
      expect(asked()[1]!.reasons[0]).toMatch(/changed after the card was shown/);
      broker.answer(asked()[1]!.requestId, asked()[1]!.argsHash, { kind: 'deny' }, 'person');
      expect(await verdict).toMatchObject({ kind: 'refuse' });
    },
  );

  it('asks again when a call before it rewrote the script the person’s edit runs', async () => {
    await writeFile(join(folder, 'run.sh'), 'echo benign\n');
    await writeFile(join(folder, 'other.sh'), 'echo also benign\n');
    const before = turnBefore();
    const verdict = call(shellTool, { command: 'sh run.sh' }, before.ready, {}, true);
    await expect.poll(() => asked().length).toBe(1);
    const [first] = asked();
    // The person changed the command to run another script, read as it was, and allowed it.
    expect(
      broker.answerEdited(first!.requestId, first!.argsHash, {
        kind: 'command',
        command: 'sh other.sh',
      }).ok,
    ).toBe(true);
    // A call ahead in the turn then rewrote that script.
    await expect.poll(before.awaited).toBe(true);
    await writeFile(join(folder, 'other.sh'), 'cat ~/.ssh/id_rsa\n');
    before.finish();
    await expect.poll(() => asked().length).toBe(2);
    const second = asked()[1]!;
    expect(second.reasons.join(' ')).toContain(
      'a file your edit runs changed after you answered: other.sh',
    );
    broker.answer(second.requestId, second.argsHash, { kind: 'deny' }, 'person');
    expect(await verdict).toMatchObject({ kind: 'refuse' });
  });

  it('runs the person’s edit on their answer when the script it names is unchanged since', async () => {
    await writeFile(join(folder, 'other.sh'), 'echo benign\n');
    const before = turnBefore();
    const verdict = call(shellTool, { command: 'sh other.sh' }, before.ready, {}, true);
    await expect.poll(() => asked().length).toBe(1);
    const [first] = asked();
    broker.answerEdited(first!.requestId, first!.argsHash, {
      kind: 'command',
      command: 'sh other.sh',
    });
    before.finish();
    expect(await verdict).toMatchObject({ kind: 'run', args: { command: 'sh other.sh' } });
    expect(asked()).toHaveLength(1);
  });

  it('asks again, saying so, when a call before it brought in outside content', async () => {
    const taint: { taintedBy?: string } = {};
    const before = turnBefore();
    const verdict = call(writeFileTool, { path: 'x.txt', content: 'x\n' }, before.ready, taint);
    await expect.poll(() => asked().length).toBe(1);
    const [first] = asked();
    expect(first!.reasons.join(' ')).not.toContain('after reading');
    broker.answer(first!.requestId, first!.argsHash, { kind: 'allow-once' }, 'person');
    taint.taintedBy = 'after reading https://example.com/';
    before.finish();
    await expect.poll(() => asked().length).toBe(2);
    const second = asked()[1]!;
    expect(second.reasons.join(' ')).toContain(
      'the conversation took in outside content after reading https://example.com/',
    );
    broker.answer(second.requestId, second.argsHash, { kind: 'deny' }, 'person');
    expect(await verdict).toMatchObject({ kind: 'refuse' });
  });

  it('judges a call that needs no card only when it is its turn', async () => {
    await writeFile(join(folder, 'a.txt'), 'a');
    const before = turnBefore();
    const verdict = call(shellTool, { command: 'cat a.txt' }, before.ready);
    expect(await settled(verdict)).toBe(false);
    expect(events).toEqual([]);
    before.finish();
    expect(await verdict).toMatchObject({ kind: 'run', provenance: 'read-only' });
    expect(events.map((e) => e.type)).toEqual(['permission-decided']);
  });
});

describe('newReasons', () => {
  it.each<[string, string[], string[], string[]]>([
    [
      'another file for the same program',
      ['`touch b.txt`: not a known read-only command: touch'],
      ['`touch a.txt`: not a known read-only command: touch'],
      [],
    ],
    [
      'another program',
      [
        '`touch a.txt`: not a known read-only command: touch',
        '`rm -f k`: not a known read-only command: rm',
      ],
      ['`touch a.txt`: not a known read-only command: touch'],
      ['`rm -f k`: not a known read-only command: rm'],
    ],
    ['a new kind of reason', ['writes to a file: > out.txt'], [], ['writes to a file: > out.txt']],
  ])('%s', (_name, reasons, shown, added) => {
    expect(newReasons(reasons, shown)).toEqual(added);
  });
});
