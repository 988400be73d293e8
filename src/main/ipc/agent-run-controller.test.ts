// The window's run controller end to end under Node: real agent, real tools in a temp folder,
// the real permission gate and broker, and the openai SDK against the scripted server.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import type { SandboxState } from '../../shared/tool-types';
import { createOpenAIProvider } from '../agent/provider';
import { GrantBook } from '../permissions/grant-book';
import { JsonFilePermissionsStore } from '../permissions/project-permissions-store';
import { storeApiKey } from '../store/provider-config';
import { JsonFileSettingsStore } from '../store/provider-settings';
import { MemorySecretStore } from '../store/secret-store';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedTurn,
} from '../../test-support/scripted-openai-server';
import { createAgentRunControllerFactory } from './agent-run-controller';
import { FOLDER_CHANGED_MESSAGE, type RunController } from './run-controller';

const noSandbox: SandboxState = { kind: 'none', available: false, description: 'none (test)' };
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  readonly controller: RunController;
  readonly folder: string;
  readonly server: ScriptedServer;
  readonly events: RunEvent[];
  readonly grants: GrantBook;
  readonly dataDir: string;
  next(type: RunEvent['type'], from?: number): Promise<RunEvent>;
}

async function setup(
  turns: ScriptedTurn[],
  configure = true,
  onProvider?: () => void,
): Promise<Setup> {
  const root = await mkdtemp(join(tmpdir(), 'tandem-arc-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const folder = await realpath(await mkdtemp(join(root, 'proj-')));
  const dataDir = join(root, 'data');
  const server = await startScriptedOpenAIServer({ turns });
  cleanups.push(() => server.close());
  const settings = new JsonFileSettingsStore(dataDir);
  const secrets = new MemorySecretStore();
  if (configure) {
    await settings.save({ baseUrl: server.baseUrl, model: 'scripted', presetId: 'openai' });
    await storeApiKey(settings, secrets, 'sk-test');
  }
  const grants = new GrantBook();
  const factory = createAgentRunControllerFactory({
    dataDir,
    settings,
    secrets,
    permissions: new JsonFilePermissionsStore(dataDir),
    grants,
    sandbox: async () => noSandbox,
    createProvider: (config) => {
      onProvider?.();
      return createOpenAIProvider({
        baseUrl: config.baseUrl,
        model: config.model,
        apiKey: config.apiKey ?? 'none',
        retry: { baseDelayMs: 1, maxAttempts: 2 },
      });
    },
  });
  const controller = await factory({ folder, name: 'proj', mode: 'ask' });
  cleanups.push(async () => controller.dispose?.());
  const events: RunEvent[] = [];
  const waiters: (() => void)[] = [];
  controller.onEvent((_sessionId, event) => {
    events.push(event);
    for (const wake of waiters.splice(0)) wake();
  });
  const next = async (type: RunEvent['type'], from = 0): Promise<RunEvent> => {
    for (;;) {
      const found = events.slice(from).find((e) => e.type === type);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { controller, folder, server, events, grants, dataDir, next };
}

const writeTurn: ScriptedTurn = {
  toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }],
};

describe('agent run controller', () => {
  it('ends "allow for this session" grants when the session closes', async () => {
    const s = await setup([
      { toolCalls: [{ name: 'shell', arguments: { command: 'touch made.txt' } }] },
      { text: 'done' },
    ]);
    const { sessionId } = await s.controller.startRun('touch a file');
    const asked = await s.next('approval-requested');
    if (asked.type !== 'approval-requested') throw new Error('unreachable');
    await s.controller.answerApproval(asked.requestId, asked.argsHash, { kind: 'allow-session' });
    await s.next('run-finished');
    expect(s.grants.active(s.folder, sessionId)).toHaveLength(1);
    await s.controller.dispose?.();
    expect(s.grants.active(s.folder, sessionId)).toHaveLength(0);
  });

  it('refuses to start without a configured provider, with a clear message', async () => {
    const { controller } = await setup([{ text: 'hi' }], false);
    await expect(controller.startRun('do it')).rejects.toThrow(/Choose a model in Settings/);
  });

  it('asks before a write, runs exactly the approved call, and records why it ran', async () => {
    const s = await setup([writeTurn, { text: 'Written.' }]);
    await s.controller.startRun('write a note');
    const asked = await s.next('approval-requested');
    if (asked.type !== 'approval-requested') throw new Error('unreachable');
    expect(asked.preview.kind).toBe('diff');
    expect(existsSync(join(s.folder, 'notes.txt'))).toBe(false);

    // A forged answer (wrong hash) and an unknown id are refused; the request stays pending.
    await expect(
      s.controller.answerApproval(asked.requestId, 'not-the-hash', { kind: 'allow-once' }),
    ).rejects.toThrow(/different arguments/);
    await expect(
      s.controller.answerApproval('no-such-id', asked.argsHash, { kind: 'allow-once' }),
    ).rejects.toThrow(/no such approval request/);

    await s.controller.answerApproval(asked.requestId, asked.argsHash, { kind: 'allow-once' });
    const finished = await s.next('run-finished');
    expect(finished).toMatchObject({ reason: 'done' });
    expect(await readFile(join(s.folder, 'notes.txt'), 'utf8')).toBe('hello\n');
    // The stored key went to the server it was entered for.
    const chat = s.server.requests.find((r) => r.path.endsWith('/chat/completions'));
    expect(chat?.headers.authorization).toBe('Bearer sk-test');
    const result = s.events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ ok: true });
    expect(result?.type === 'tool-result' && result.provenance).toMatch(/you allowed it at/);
    // Answering the same request twice is refused.
    await expect(
      s.controller.answerApproval(asked.requestId, asked.argsHash, { kind: 'allow-once' }),
    ).rejects.toThrow(/already answered/);
  });

  it('denies a pending approval on stop, and the call is answered to the model', async () => {
    const s = await setup([writeTurn, { text: 'ok' }]);
    const { runId } = await s.controller.startRun('write a note');
    await s.next('approval-requested');
    await s.controller.stopRun(runId);
    const finished = await s.next('run-finished');
    expect(finished).toMatchObject({ reason: 'stopped' });
    expect(existsSync(join(s.folder, 'notes.txt'))).toBe(false);
    const resolved = s.events.find((e) => e.type === 'approval-resolved');
    expect(resolved).toMatchObject({ answer: { kind: 'deny' }, by: 'stop' });
  });

  it('journals an approved command: the result lists the changes on disk', async () => {
    const s = await setup([
      { toolCalls: [{ name: 'shell', arguments: { command: 'echo one > a.txt && rm gone.txt' } }] },
      { text: 'done' },
    ]);
    await writeFile(join(s.folder, 'gone.txt'), 'bye\n');
    await s.controller.startRun('make a file');
    const asked = await s.next('approval-requested');
    if (asked.type !== 'approval-requested') throw new Error('unreachable');
    expect(asked.preview.kind).toBe('command');
    await s.controller.answerApproval(asked.requestId, asked.argsHash, { kind: 'allow-once' });
    await s.next('run-finished');
    const result = s.events.find((e) => e.type === 'tool-result');
    if (result?.type !== 'tool-result') throw new Error('no tool result');
    expect(result.output).toMatch(/Changes on disk \(can be reverted\): 2 files changed/);
    expect(result.output).toMatch(/added a\.txt/);
    expect(result.output).toMatch(/deleted gone\.txt/);
    // The model was given the same text.
    const toolMessage = s.server
      .chatBodies()[1]
      ?.messages.find((m) => (m as { role?: string }).role === 'tool');
    expect(JSON.stringify(toolMessage)).toMatch(/2 files changed/);

    // Undo from the window: the created file goes, the deleted one comes back.
    const reverted = await s.controller.revertCall(asked.callId);
    expect(reverted).toMatchObject({
      ok: true,
      message: 'Reverted: deleted a.txt, restored gone.txt',
    });
    expect(existsSync(join(s.folder, 'a.txt'))).toBe(false);
    expect(await readFile(join(s.folder, 'gone.txt'), 'utf8')).toBe('bye\n');
  });

  it('refuses to revert a call whose file changed since, and reverts a whole run', async () => {
    const s = await setup([writeTurn, { text: 'ok' }]);
    const { runId } = await s.controller.startRun('write a note');
    const asked = await s.next('approval-requested');
    if (asked.type !== 'approval-requested') throw new Error('unreachable');
    await s.controller.answerApproval(asked.requestId, asked.argsHash, { kind: 'allow-once' });
    await s.next('run-finished');
    await writeFile(join(s.folder, 'notes.txt'), 'edited by the person\n');
    const refused = await s.controller.revertCall(asked.callId);
    expect(refused.ok).toBe(false);
    // Paths are shown relative to the project.
    expect(refused.message).toMatch(
      /^Not reverted: 1 file\(s\) changed since call \S+ wrote them: notes\.txt\./,
    );
    expect(await readFile(join(s.folder, 'notes.txt'), 'utf8')).toBe('edited by the person\n');
    await writeFile(join(s.folder, 'notes.txt'), 'hello\n');
    await expect(s.controller.revertRun(runId)).resolves.toMatchObject({ ok: true });
    expect(existsSync(join(s.folder, 'notes.txt'))).toBe(false);
  });

  it("sends the person's keystrokes to the running command only", async () => {
    const s = await setup([
      { toolCalls: [{ name: 'shell', arguments: { command: 'read line; echo "got:$line"' } }] },
      { text: 'done' },
    ]);
    await s.controller.startRun('ask me');
    const asked = await s.next('approval-requested');
    if (asked.type !== 'approval-requested') throw new Error('unreachable');
    expect(await s.controller.sendTerminalInput(asked.callId, 'early\r')).toBe(false);
    await s.controller.answerApproval(asked.requestId, asked.argsHash, { kind: 'allow-once' });
    // The pty registers as the command starts; until then there is nothing to type into.
    while (!(await s.controller.sendTerminalInput(asked.callId, 'yes\r'))) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await s.next('run-finished');
    const result = s.events.find((e) => e.type === 'tool-result');
    expect(result?.type === 'tool-result' && result.output).toMatch(/got:yes/);
    expect(await s.controller.sendTerminalInput(asked.callId, 'late\r')).toBe(false);
  });

  it("previews what 'Always allow' would store over the project's earlier calls", async () => {
    const touch = { toolCalls: [{ name: 'shell', arguments: { command: 'touch a.txt' } }] };
    const s = await setup([touch, { text: 'one' }, touch, { text: 'two' }]);
    await s.controller.startRun('first');
    const first = await s.next('approval-requested');
    if (first.type !== 'approval-requested') throw new Error('unreachable');
    await s.controller.answerApproval(first.requestId, first.argsHash, { kind: 'allow-once' });
    await expect(s.controller.previewAlwaysRule(first.requestId)).rejects.toThrow(
      /no longer pending/,
    );
    const from = s.events.length;
    await s.next('run-finished');
    await s.controller.startRun('second');
    const second = await s.next('approval-requested', from + 1);
    if (second.type !== 'approval-requested') throw new Error('unreachable');
    const preview = await s.controller.previewAlwaysRule(second.requestId);
    expect(preview.rules).toEqual(['`touch a.txt` exactly']);
    // The pending request itself is not an earlier call; the first run's call was in this session.
    expect(preview.matched).toBe(1);
    expect(preview.summary).toMatch(
      /would have run 1 earlier call \(in this session\) without asking, e\.g\. `touch a\.txt`/,
    );
    expect(preview.choices[0]?.map((c) => [c.widen, c.refused === null])).toEqual([
      [null, true],
      [['touch'], false],
      [['touch', 'a.txt'], true],
    ]);
    await s.controller.answerApproval(second.requestId, second.argsHash, { kind: 'deny' });
    await s.next('run-finished', from + 1);
  });

  it('takes a widening only as a prefix of the words the card showed, then stores it', async () => {
    const command = 'touch build/a.txt build/b.txt';
    const s = await setup([
      { toolCalls: [{ name: 'shell', arguments: { command } }] },
      { text: 'done' },
    ]);
    await s.controller.startRun('touch files');
    const asked = await s.next('approval-requested');
    if (asked.type !== 'approval-requested') throw new Error('unreachable');
    expect(asked.storable).toEqual(['`touch build/a.txt build/b.txt` exactly']);
    const widen = (words: string[][]): Promise<void> =>
      s.controller.answerApproval(asked.requestId, asked.argsHash, {
        kind: 'allow-always',
        widen: words,
      });
    // Arbitrary words from the window, a longer list, or the program alone: refused in main.
    await expect(widen([['rm', '-rf', '.']])).rejects.toThrow(
      /Answer not accepted: the answer does not fit what the request offered: `rm -rf .` is not the start of a command this card offered to store/,
    );
    await expect(widen([['touch', 'build/a.txt', 'build/b.txt', 'x']])).rejects.toThrow(
      /not the start of a command/,
    );
    await expect(widen([['touch']])).rejects.toThrow(/every use of `touch`/);
    await widen([['touch', 'build/a.txt']]);
    await s.next('run-finished');
    const stored = await new JsonFilePermissionsStore(s.dataDir).load(s.folder);
    expect(stored.rules.map((r) => r.rule)).toEqual([
      { kind: 'command', argv: ['touch', 'build/a.txt'], match: 'prefix' },
    ]);
  });

  it('starts nothing when the folder is closed while the run is being set up', async () => {
    const s = await setup([writeTurn, { text: 'ok' }]);
    const started = s.controller.startRun('write a note');
    await s.controller.dispose?.();
    await expect(started).rejects.toThrow(FOLDER_CHANGED_MESSAGE);
    // Later sends are refused too, and the model was never asked.
    await expect(s.controller.startRun('again')).rejects.toThrow(FOLDER_CHANGED_MESSAGE);
    expect(s.server.chatBodies()).toHaveLength(0);
    expect(s.events).toEqual([]);
  });

  it('closes an agent that finishes opening after the folder was closed', async () => {
    let closed: Promise<void> | undefined;
    // The provider is made as the agent starts opening: the folder is closed right then.
    const s = await setup([writeTurn, { text: 'ok' }], true, () => {
      closed = Promise.resolve(s.controller.dispose?.());
    });
    const started = s.controller.startRun('write a note');
    await expect(started).rejects.toThrow(FOLDER_CHANGED_MESSAGE);
    await closed;
    expect(s.server.chatBodies()).toHaveLength(0);
    expect(s.events.filter((e) => e.type === 'run-started')).toEqual([]);
  });

  it('stops a live run when closed: the approval is denied and the run finishes, seen', async () => {
    const s = await setup([writeTurn, { text: 'ok' }]);
    await s.controller.startRun('write a note');
    await s.next('approval-requested');
    await s.controller.dispose?.();
    expect(s.events.find((e) => e.type === 'approval-resolved')).toMatchObject({
      answer: { kind: 'deny' },
      by: 'closed',
    });
    expect(s.events.at(-1)).toMatchObject({ type: 'run-finished' });
    expect(existsSync(join(s.folder, 'notes.txt'))).toBe(false);
    expect(s.server.chatBodies()).toHaveLength(1);
  });
});

describe('sessions', () => {
  it('continues an opened session, starts a new one, and refuses to switch while a run goes', async () => {
    const s = await setup([{ text: 'one' }, { text: 'two' }, { text: 'three' }, writeTurn]);
    expect(s.controller.currentSession()).toBeNull();
    const finished = async (runId: string): Promise<void> => {
      while (!s.events.some((e) => e.type === 'run-finished' && e.runId === runId)) {
        await s.next('run-finished', s.events.length);
      }
    };
    const first = await s.controller.startRun('first task');
    await finished(first.runId);
    expect(s.controller.currentSession()).toEqual({ id: first.sessionId, running: false });

    await s.controller.newSession();
    expect(s.controller.currentSession()).toBeNull();
    const second = await s.controller.startRun('second task');
    await finished(second.runId);
    expect(second.sessionId).not.toBe(first.sessionId);

    // Back to the first: the next task goes there, with the first task in its history.
    await s.controller.openSession(first.sessionId);
    expect(s.controller.currentSession()).toEqual({ id: first.sessionId, running: false });
    const third = await s.controller.startRun('third task');
    expect(third.sessionId).toBe(first.sessionId);
    await finished(third.runId);
    const users = s.server
      .chatBodies()
      .at(-1)!
      .messages.filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['first task', 'third task']);

    // A run waiting for an answer keeps its session.
    await s.controller.startRun('write the notes');
    const asked = await s.next('approval-requested');
    expect(s.controller.currentSession()).toEqual({ id: first.sessionId, running: true });
    await expect(s.controller.newSession()).rejects.toThrow(
      'A run is still going; stop it before switching sessions.',
    );
    if (asked.type !== 'approval-requested') throw new Error('unreachable');
    await s.controller.stopRun(asked.runId);
  });
});

describe('a turn of several changes', () => {
  it('shows every card of the turn at once, and runs them in order once answered', async () => {
    const s = await setup([
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'one.txt', content: '1\n' } },
          { name: 'write_file', arguments: { path: 'two.txt', content: '2\n' } },
          { name: 'shell', arguments: { command: 'cat one.txt two.txt > both.txt' } },
        ],
      },
      { text: 'done' },
    ]);
    await s.controller.startRun('three changes');
    while (s.events.filter((e) => e.type === 'approval-requested').length < 3) {
      await s.next('approval-requested', s.events.length);
    }
    // Cards open side by side (their order of arrival varies); the calls' order is the turn's.
    const order = s.events.flatMap((e) => (e.type === 'tool-call-started' ? [e.callId] : []));
    const cards = s.events
      .filter(
        (e): e is Extract<RunEvent, { type: 'approval-requested' }> =>
          e.type === 'approval-requested',
      )
      .sort((a, b) => order.indexOf(a.callId) - order.indexOf(b.callId));
    expect(cards.map((c) => c.name)).toEqual(['write_file', 'write_file', 'shell']);
    expect(s.events.some((e) => e.type === 'tool-result')).toBe(false);
    // Answered last first: still run first to last (the command reads what the writes made).
    for (const card of [...cards].reverse()) {
      await s.controller.answerApproval(card.requestId, card.argsHash, { kind: 'allow-once' });
    }
    await s.next('run-finished');
    const results = s.events.filter(
      (e): e is Extract<RunEvent, { type: 'tool-result' }> => e.type === 'tool-result',
    );
    expect(results.map((r) => [r.callId, r.ok])).toEqual(cards.map((c) => [c.callId, true]));
    expect(await readFile(join(s.folder, 'both.txt'), 'utf8')).toBe('1\n2\n');
  });
});

describe('editing a call before allowing it', () => {
  async function card(
    s: Setup,
    nth = 1,
  ): Promise<Extract<RunEvent, { type: 'approval-requested' }>> {
    while (s.events.filter((e) => e.type === 'approval-requested').length < nth) {
      await s.next('approval-requested', s.events.length);
    }
    return s.events.filter(
      (e): e is Extract<RunEvent, { type: 'approval-requested' }> =>
        e.type === 'approval-requested',
    )[nth - 1]!;
  }

  it('runs exactly the edited command, and the model hears it was edited', async () => {
    const s = await setup([
      { toolCalls: [{ name: 'shell', arguments: { command: 'touch proposed.txt' } }] },
      { text: 'ok' },
    ]);
    await s.controller.startRun('make a file');
    const asked = await card(s);
    await s.controller.answerEdited(asked.requestId, asked.argsHash, {
      kind: 'command',
      command: 'touch edited.txt',
    });
    await s.next('run-finished');
    expect(existsSync(join(s.folder, 'edited.txt'))).toBe(true);
    expect(existsSync(join(s.folder, 'proposed.txt'))).toBe(false);
    const resolved = s.events.find((e) => e.type === 'approval-resolved');
    expect(resolved).toMatchObject({
      answer: { kind: 'allow-once' },
      edited: { kind: 'command', command: 'touch edited.txt' },
    });
    const result = s.events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ ok: true });
    expect(result?.type === 'tool-result' && result.output).toMatch(
      /^The person edited this command before allowing it\. What ran instead of yours:\ntouch edited\.txt\n\n/,
    );
    expect(result?.type === 'tool-result' && result.provenance).toMatch(
      /^you edited it and allowed your version at \d\d:\d\d$/,
    );
    // The same note went to the model.
    const toolMessage = s.server
      .chatBodies()
      .at(-1)!
      .messages.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain('What ran instead of yours:\ntouch edited.txt');
  });

  it('asks again when the edit needs more than the card showed, and runs nothing on a no', async () => {
    const s = await setup([
      { toolCalls: [{ name: 'shell', arguments: { command: 'touch a.txt' } }] },
      { text: 'ok' },
    ]);
    await writeFile(join(s.folder, 'keep.txt'), 'keep\n');
    await s.controller.startRun('touch it');
    const first = await card(s);
    await s.controller.answerEdited(first.requestId, first.argsHash, {
      kind: 'command',
      command: 'touch a.txt && rm -f keep.txt',
    });
    const second = await card(s, 2);
    expect(second.callId).toBe(first.callId);
    expect(second.args).toEqual({ command: 'touch a.txt && rm -f keep.txt' });
    expect(second.argsHash).not.toBe(first.argsHash);
    expect(second.reasons[0]).toMatch(
      /^you edited this call, and your version needs more than the card you answered: .*rm/,
    );
    await s.controller.answerApproval(second.requestId, second.argsHash, { kind: 'deny' });
    await s.next('run-finished');
    expect(existsSync(join(s.folder, 'keep.txt'))).toBe(true);
    expect(existsSync(join(s.folder, 'a.txt'))).toBe(false);
  });

  it('refuses an edit the tool does not take, and the card stays answerable', async () => {
    const s = await setup([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'n.txt', content: 'model\n' } }] },
      { text: 'ok' },
    ]);
    await s.controller.startRun('write it');
    const asked = await card(s);
    await expect(
      s.controller.answerEdited(asked.requestId, asked.argsHash, {
        kind: 'command',
        command: 'rm -rf /',
      }),
    ).rejects.toThrow(/Edit not accepted: .*only the content of write_file can be edited/);
    await expect(
      s.controller.answerEdited('not-a-request', asked.argsHash, { kind: 'content', content: 'x' }),
    ).rejects.toThrow(/no such approval request/);
    await s.controller.answerEdited(asked.requestId, asked.argsHash, {
      kind: 'content',
      content: 'person\n',
    });
    await s.next('run-finished');
    expect(await readFile(join(s.folder, 'n.txt'), 'utf8')).toBe('person\n');
  });
});
