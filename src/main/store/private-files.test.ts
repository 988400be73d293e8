// Data at rest is the person's alone (issue 11 item 4): under umask 022, everything Tandem writes in
// its data folder is 0600 (files) and 0700 (folders), and data an older version left readable is
// tightened when the project is opened.
import { lstatSync, readdirSync } from 'node:fs';
import { chmod, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allowAll, makeTempDir } from '../../test-support/agent-harness';
import { startScriptedOpenAIServer } from '../../test-support/scripted-openai-server';
import { createOpenAIProvider } from '../agent/provider';
import { openWorkspaceAgent } from '../agent/workspace-agent';
import {
  DEFAULT_PERMISSIONS,
  JsonFilePermissionsStore,
} from '../permissions/project-permissions-store';
import { openProjectJournal } from '../workspace/project-journal';
import { projectDataDir } from './data-dir';
import { DEFAULT_PROVIDER_SETTINGS, JsonFileSettingsStore } from './provider-settings';

let umask = 0;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every entry below `root` whose mode lets anyone but the owner in. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return;
    if (stats.isDirectory()) {
      if ((stats.mode & 0o777) !== 0o700) found.push(`${path} ${(stats.mode & 0o777).toString(8)}`);
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if ((stats.mode & 0o777) !== 0o600) {
      found.push(`${path} ${(stats.mode & 0o777).toString(8)}`);
    }
  };
  visit(root);
  return found;
}

async function temp(name: string): Promise<string> {
  const dir = await realpath(await makeTempDir(name));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('data at rest under umask 022', () => {
  it('creates transcripts, the journal, copies, rules and settings 0600 in 0700 folders', async () => {
    const folder = await temp('modes-proj');
    const dataDir = join(await temp('modes-data'), 'tandem');
    await writeFile(join(folder, 'a.txt'), 'a\n');
    const server = await startScriptedOpenAIServer({
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } }] },
        { toolCalls: [{ name: 'shell', arguments: { command: 'echo c > c.txt' } }] },
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
    expect(await workspace.agent.startRun('write').done).toBe('done');
    await workspace.close();
    await new JsonFilePermissionsStore(dataDir).save(folder, DEFAULT_PERMISSIONS);
    await new JsonFileSettingsStore(dataDir).save(DEFAULT_PROVIDER_SETTINGS);

    const projectDir = projectDataDir(dataDir, folder);
    // The pieces the issue names are all there, and all private.
    expect(readdirSync(projectDir)).toEqual(
      expect.arrayContaining(['journal', 'track', 'sessions', 'permissions.json']),
    );
    expect(readdirSync(join(projectDir, 'journal', 'objects')).length).toBeGreaterThan(1);
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it('tightens data an older version wrote, and removes its world-readable git copy', async () => {
    const folder = await temp('modes-old');
    const dataDir = await temp('modes-old-data');
    await chmod(dataDir, 0o755);
    const projectDir = projectDataDir(dataDir, folder);
    await mkdir(join(projectDir, 'sessions'), { recursive: true, mode: 0o755 });
    await writeFile(join(projectDir, 'sessions', 's.jsonl'), '{}\n', { mode: 0o644 });
    await writeFile(join(projectDir, 'permissions.json'), '{}\n', { mode: 0o644 });
    await mkdir(join(projectDir, 'shadow.git', 'objects'), { recursive: true, mode: 0o755 });
    await writeFile(join(dataDir, 'settings.json'), '{}\n', { mode: 0o644 });
    await chmod(join(dataDir, 'projects'), 0o755);
    await chmod(projectDir, 0o755);

    const project = await openProjectJournal({ folder, dataDir });
    await project.tightened;
    await project.release();
    expect(readdirSync(projectDir)).not.toContain('shadow.git');
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
