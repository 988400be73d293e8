// The shared composition: real tools, the per-project undo journal and command snapshots. Call ids
// repeat across sessions (providers reuse "call_0"), so undo must be keyed by session too.
import { existsSync } from 'node:fs';
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAll, makeTempDir } from '../../test-support/agent-harness';
import { startScriptedOpenAIServer } from '../../test-support/scripted-openai-server';
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
});
