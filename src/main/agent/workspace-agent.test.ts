// The shared composition: real tools, the per-project undo journal and command snapshots. Call ids
// repeat across sessions (providers reuse "call_0"), so undo must be keyed by session too.
import { copyFileSync, cpSync, existsSync, rmSync } from 'node:fs';
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { allowAll, makeTempDir } from '../../test-support/agent-harness';
import { startScriptedOpenAIServer } from '../../test-support/scripted-openai-server';
import { projectDataDir } from '../store/data-dir';
import { acquireProjectLock } from '../workspace/project-lock';
import { createOpenAIProvider } from './provider';
import { openWorkspaceAgent, type WorkspaceAgent } from './workspace-agent';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function session(
  folder: string,
  dataDir: string,
  path: string,
  content: string,
): Promise<{ workspace: WorkspaceAgent; runId: string }> {
  const server = await startScriptedOpenAIServer({
    turns: [
      // The same id in every session, as many servers do.
      { toolCalls: [{ id: 'call_0', name: 'write_file', arguments: { path, content } }] },
      { text: 'done' },
    ],
  });
  cleanups.push(() => server.close());
  const workspace = await openWorkspaceAgent({
    folder,
    dataDir,
    gate: allowAll,
    provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
  });
  cleanups.push(() => workspace.close());
  const run = workspace.agent.startRun(`write ${path}`);
  expect(await run.done).toBe('done');
  return { workspace, runId: run.runId };
}

/**
 * A session whose command (`echo hi > made.txt; rm keep.txt; sleep 60`) was running when the app
 * died: the journal, the tracker's index and the transcript are put back as they were at that
 * moment, as the next open finds them.
 */
async function crashDuringCommand(): Promise<{
  folder: string;
  dataDir: string;
  provider: ReturnType<typeof createOpenAIProvider>;
  sessionId: string;
}> {
  const folder = await realpath(await makeTempDir('wa-proj'));
  const dataDir = await makeTempDir('wa-data');
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  await writeFile(join(folder, 'keep.txt'), 'kept\n');
  const server = await startScriptedOpenAIServer({
    turns: [
      {
        toolCalls: [
          {
            id: 'call_0',
            name: 'shell',
            arguments: { command: 'echo hi > made.txt; rm keep.txt; sleep 60' },
          },
        ],
      },
      { text: 'done' },
      { text: 'continued' },
    ],
  });
  cleanups.push(() => server.close());
  const provider = createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' });
  const first = await openWorkspaceAgent({ folder, dataDir, gate: allowAll, provider });
  const run = first.agent.startRun('make a file');
  while (!existsSync(join(folder, 'made.txt')) || existsSync(join(folder, 'keep.txt')))
    await new Promise((resolve) => setTimeout(resolve, 20));
  // The app dies here: what is on disk now is what the next open finds.
  const projectDir = projectDataDir(dataDir, folder);
  const saved = join(dataDir, 'at-crash');
  cpSync(join(projectDir, 'journal', 'journal.jsonl'), join(saved, 'journal.jsonl'));
  cpSync(join(projectDir, 'track'), join(saved, 'track'), { recursive: true });
  copyFileSync(first.agent.transcriptFile, join(saved, 'transcript.jsonl'));
  first.agent.stop(run.runId);
  await run.done;
  const transcript = first.agent.transcriptFile;
  const sessionId = first.agent.sessionId;
  await first.close();
  copyFileSync(join(saved, 'journal.jsonl'), join(projectDir, 'journal', 'journal.jsonl'));
  rmSync(join(projectDir, 'track'), { recursive: true });
  cpSync(join(saved, 'track'), join(projectDir, 'track'), { recursive: true });
  copyFileSync(join(saved, 'transcript.jsonl'), transcript);
  return { folder, dataDir, provider, sessionId };
}

describe('workspace agent', () => {
  it('keeps undo of two sessions apart even when their call ids are equal', async () => {
    const folder = await realpath(await makeTempDir('wa-proj'));
    const dataDir = await makeTempDir('wa-data');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await writeFile(join(folder, 'a.txt'), 'original a\n');

    const first = await session(folder, dataDir, 'a.txt', 'first session\n');
    const second = await session(folder, dataDir, 'b.txt', 'second session\n');
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('first session\n');
    expect(existsSync(join(folder, 'b.txt'))).toBe(true);

    // Undoing the second session's call_0 removes b.txt and leaves a.txt alone.
    const undoSecond = await second.workspace.revertCall('call_0');
    expect(undoSecond.ok).toBe(true);
    expect(existsSync(join(folder, 'b.txt'))).toBe(false);
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('first session\n');

    // The first session's run is undone by run id, restoring a.txt.
    const undoFirst = await first.workspace.revertRun(first.runId);
    expect(undoFirst.ok).toBe(true);
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('original a\n');
  });

  it('a command run with the network on reports its changes and taints, also after reopening', async () => {
    const folder = await realpath(await makeTempDir('wa-proj'));
    const dataDir = await makeTempDir('wa-data');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const command = 'echo hi > net.txt';
    const server = await startScriptedOpenAIServer({
      turns: [
        { toolCalls: [{ id: 'call_0', name: 'shell', arguments: { command } }] },
        { text: 'done' },
      ],
    });
    cleanups.push(() => server.close());
    const provider = createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' });
    const network = { allowShellNetwork: true, allowPrivateNetwork: false };
    const first = await openWorkspaceAgent({ folder, dataDir, gate: allowAll, provider, network });
    const results: RunEvent[] = [];
    first.agent.onEvent((event) => {
      if (event.type === 'tool-result') results.push(event);
    });
    expect(await first.agent.startRun('make a file').done).toBe('done');
    const sessionId = first.agent.sessionId;
    await first.close();
    // The command journal wraps the shell: its changes and the shell's taint both reach the event.
    const expected = {
      type: 'tool-result',
      ok: true,
      taintedBy: `after running \`${command}\` with network on`,
      changes: {
        kind: 'tracked',
        revertable: true,
        files: [{ path: 'net.txt', status: 'added', added: 1, removed: 0, content: 'text' }],
      },
    };
    expect(results).toMatchObject([expected]);

    // Both come back from the transcript (the event schema names `changes` and `taintedBy`).
    const second = await openWorkspaceAgent({
      folder,
      dataDir,
      gate: allowAll,
      provider,
      sessionId,
    });
    cleanups.push(() => second.close());
    expect(second.agent.pastEvents().filter((e) => e.type === 'tool-result')).toMatchObject([
      expected,
    ]);
    expect(second.loadProblems()).toEqual([]);
    expect((await second.revertCall('call_0')).ok).toBe(true);
    expect(existsSync(join(folder, 'net.txt'))).toBe(false);
  });

  it('after a crash during a command, tells the model what it really did, and can undo it', async () => {
    const { folder, dataDir, provider, sessionId } = await crashDuringCommand();
    const second = await openWorkspaceAgent({
      folder,
      dataDir,
      gate: allowAll,
      provider,
      sessionId,
    });
    cleanups.push(() => second.close());
    const answer = second.agent.pastEvents().find((e) => e.type === 'tool-result');
    expect(answer).toMatchObject({
      callId: 'call_0',
      ok: false,
      changes: { kind: 'tracked', revertable: true, recovered: true },
    });
    if (answer?.type !== 'tool-result') throw new Error('no answer');
    expect(answer.output).toMatch(
      /^Tandem stopped while this command was running\. It ran and changed 2 files/,
    );
    expect(
      answer.changes?.kind === 'tracked' && answer.changes.files.map((f) => [f.path, f.status]),
    ).toEqual([
      ['keep.txt', 'deleted'],
      ['made.txt', 'added'],
    ]);
    const toolMessage = second.agent.messages().find((m) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_0', content: answer.output });
    expect(await second.revertCall('call_0')).toMatchObject({ ok: true });
    expect(existsSync(join(folder, 'made.txt'))).toBe(false);
    expect(await readFile(join(folder, 'keep.txt'), 'utf8')).toBe('kept\n');
  });

  it('after a crash, a new session of the CLI scans the project at open, before any call of its own', async () => {
    // The scan blames what changed since the last index on the command that was running; a write
    // of the new session that landed before the scan reached its file would be blamed too.
    const { folder, dataDir, provider } = await crashDuringCommand();
    const fresh = await openWorkspaceAgent({
      folder,
      dataDir,
      gate: allowAll,
      provider,
      prepareTracking: 'first-request',
    });
    cleanups.push(() => fresh.close());
    const index = join(projectDataDir(dataDir, folder), 'track', 'index.json');
    const indexed = JSON.parse(await readFile(index, 'utf8')) as unknown;
    expect(JSON.stringify(indexed)).toContain('made.txt');
  });

  it('opens read-only, saying who holds it, when another process owns the project', async () => {
    const folder = await realpath(await makeTempDir('wa-proj'));
    const dataDir = await makeTempDir('wa-data');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await writeFile(join(folder, 'a.txt'), 'original\n');
    // Another owner (held here; the lock cannot tell a second process from a second open).
    const held = await acquireProjectLock(projectDataDir(dataDir, folder));
    if (held.kind !== 'owner') throw new Error('could not take the lock');
    cleanups.push(() => held.release());
    const server = await startScriptedOpenAIServer({
      turns: [
        {
          toolCalls: [
            {
              id: 'call_0',
              name: 'write_file',
              arguments: { path: 'a.txt', content: 'changed\n' },
            },
          ],
        },
        { text: 'done' },
      ],
    });
    cleanups.push(() => server.close());
    const workspace = await openWorkspaceAgent({
      folder,
      dataDir,
      gate: allowAll,
      provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
    });
    cleanups.push(() => workspace.close());
    const holder = new RegExp(`open in another Tandem process \\(pid ${process.pid} on `);
    expect(workspace.readOnly).toMatch(holder);
    const results: string[] = [];
    workspace.agent.onEvent((e) => void (e.type === 'tool-result' && results.push(e.output)));
    expect(await workspace.agent.startRun('write').done).toBe('done');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatch(/^Not run: This project is open in another Tandem process/);
    expect(await readFile(join(folder, 'a.txt'), 'utf8')).toBe('original\n');
    expect(await workspace.revertCall('call_0')).toMatchObject({ ok: false });
  });
});
