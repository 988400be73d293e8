// Undo tells the model (issue 13 item 6), and the changes panel's view of one session: every
// file it changed, diffed against the session's start, put back per file. Real tools, a real
// journal in a temp data folder, the real provider against the scripted server.
import { existsSync } from 'node:fs';
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../test-support/scripted-openai-server';
import { allowAll, eventsOfType, makeTempDir } from '../../test-support/agent-harness';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../../test-support/scripted-openai-server';
import type { RunEvent } from '../../shared/events';
import { readSessionEvents } from '../store/session-trace';
import { createOpenAIProvider } from './provider';
import { openWorkspaceAgent, type WorkspaceAgent } from './workspace-agent';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  readonly folder: string;
  readonly dataDir: string;
  readonly server: ScriptedServer;
  readonly workspace: WorkspaceAgent;
  readonly events: RunEvent[];
}

async function setup(turns: ScriptedTurn[]): Promise<Setup> {
  const folder = await realpath(await makeTempDir('undo-proj'));
  const dataDir = await makeTempDir('undo-data');
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const server = await startScriptedOpenAIServer({ turns });
  cleanups.push(() => server.close());
  const workspace = await openWorkspaceAgent({
    folder,
    dataDir,
    gate: allowAll,
    provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
  });
  cleanups.push(() => workspace.close());
  const events: RunEvent[] = [];
  workspace.agent.onEvent((event) => events.push(event));
  return { folder, dataDir, server, workspace, events };
}

const edit = (id: string, path: string, from: string, to: string): ScriptedTurn => ({
  toolCalls: [{ id, name: 'edit_file', arguments: { path, old_text: from, new_text: to } }],
});

describe('undo tells the model', () => {
  it('records the revert of a call and puts a note in the next request', async () => {
    const s = await setup([
      edit('c1', 'sum.js', 'a + b', 'a - b'),
      { text: 'edited' },
      { text: 'ok' },
    ]);
    await writeFile(join(s.folder, 'sum.js'), 'return a + b;\n');
    expect(await s.workspace.agent.startRun('break it').done).toBe('done');

    const undone = await s.workspace.revertCall('c1');
    expect(undone.ok).toBe(true);
    expect(await readFile(join(s.folder, 'sum.js'), 'utf8')).toBe('return a + b;\n');
    const [reverted] = eventsOfType(s.events, 'files-reverted');
    expect(reverted).toMatchObject({
      scope: { kind: 'call', callId: 'c1' },
      files: [{ path: 'sum.js', action: 'restored' }],
    });

    expect(await s.workspace.agent.startRun('what now?').done).toBe('done');
    const last = s.server.chatBodies().at(-1)!;
    const users = last.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    expect(users).toEqual([
      'break it',
      'Note from Tandem (not a new task): the person reverted your edit of sum.js (restored sum.js). ' +
        'Those files are back as they were before that change; read them again before relying on their content.',
      'what now?',
    ]);
    // The event is in the transcript, so a reopened session shows the revert too.
    const recorded = readSessionEvents(s.workspace.agent.transcriptFile);
    expect(recorded.some((e) => e.type === 'files-reverted')).toBe(true);
  });

  it('a whole run: lists its files first, then undoes them and names the task to the model', async () => {
    const s = await setup([
      {
        toolCalls: [
          { id: 'w1', name: 'write_file', arguments: { path: 'new.txt', content: 'n\n' } },
          { id: 'w2', name: 'write_file', arguments: { path: 'old.txt', content: 'changed\n' } },
        ],
      },
      { text: 'wrote' },
      { text: 'ok' },
    ]);
    await writeFile(join(s.folder, 'old.txt'), 'old\n');
    const run = s.workspace.agent.startRun('write two files');
    expect(await run.done).toBe('done');

    expect(s.workspace.runChangedPaths(run.runId).sort()).toEqual([
      join(s.folder, 'new.txt'),
      join(s.folder, 'old.txt'),
    ]);
    const undone = await s.workspace.revertRun(run.runId);
    expect(undone.ok && undone.files.map((f) => f.action).sort()).toEqual(['deleted', 'restored']);
    expect(existsSync(join(s.folder, 'new.txt'))).toBe(false);
    expect(s.workspace.runChangedPaths(run.runId)).toEqual([]);

    expect(await s.workspace.agent.startRun('and now?').done).toBe('done');
    const users = s.server
      .chatBodies()
      .at(-1)!
      .messages.filter((m) => m.role === 'user')
      .map((m) => String(m.content));
    expect(users[1]).toMatch(
      /^Note from Tandem \(not a new task\): the person reverted every change you made for the task "write two files" \((deleted new\.txt, restored old\.txt|restored old\.txt, deleted new\.txt)\)\./,
    );
  });
});

describe("the session's changes", () => {
  it('diffs each file from the session start to now, and puts one back', async () => {
    const s = await setup([
      edit('e1', 'a.txt', 'one', 'two'),
      edit('e2', 'a.txt', 'two', 'three'),
      {
        toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } }],
      },
      { text: 'done' },
    ]);
    await writeFile(join(s.folder, 'a.txt'), 'one\nkeep\n');
    expect(await s.workspace.agent.startRun('change things').done).toBe('done');

    const changes = await s.workspace.sessionChanges();
    expect(changes.map((c) => [c.path, c.change, c.added, c.removed, c.blocked])).toEqual([
      ['a.txt', 'modified', 1, 1, null],
      ['b.txt', 'added', 1, 0, null],
    ]);
    // One combined diff over both edits: from "one" straight to "three".
    const diff = changes[0]!.diff;
    expect(diff).toContain('-one\n');
    expect(diff).toContain('+three\n');
    expect(diff).not.toContain('two');

    const reverted = await s.workspace.revertFiles(['a.txt']);
    expect(reverted).toEqual({ ok: true, files: [{ path: 'a.txt', action: 'restored' }] });
    expect(await readFile(join(s.folder, 'a.txt'), 'utf8')).toBe('one\nkeep\n');
    expect((await s.workspace.sessionChanges()).map((c) => c.path)).toEqual(['b.txt']);
    expect(eventsOfType(s.events, 'files-reverted').at(-1)?.scope).toEqual({ kind: 'files' });

    // A path the session never changed is refused before anything is touched.
    expect(await s.workspace.revertFiles(['b.txt', 'other.txt'])).toEqual({
      ok: false,
      reason: 'other.txt was not changed in this session.',
    });
    expect(existsSync(join(s.folder, 'b.txt'))).toBe(true);
  });
});
